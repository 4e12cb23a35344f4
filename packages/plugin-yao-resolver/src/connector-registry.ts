import { readdir } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { AgentestError } from '@agentest/kernel';
import type { ConnectorConfig } from '@agentest/connectors';
import { readJsonc } from './jsonc.js';

/** A connector definition and where it came from, for messages. */
export interface ConnectorEntry {
  id: string;
  config: ConnectorConfig;
  source: string;
}

const DSL_FILE = /\.(yao|json|jsonc)$/;

/** Connector types that can answer a chat: Yao's two LLM types and the offline stand-in for them. */
const CHAT_TYPES = new Set(['openai', 'anthropic', 'mock']);

/**
 * Yao's connector id for a path under `connectors/`: directory segments with dots turned into `_`,
 * then the basename without its DSL extension and a `.conn` suffix, remaining dots turned into `_`.
 * `claude/sonnet-3.5.conn.yao` → `claude.sonnet-3_5`.
 */
export function connectorId(relativePath: string): string {
  const segments = relativePath.split(/[\\/]/).filter(Boolean);
  const file = segments.pop() ?? '';
  const base = file.replace(DSL_FILE, '').replace(/\.conn$/, '');
  return [...segments, base].map((s) => s.replaceAll('.', '_')).join('.');
}

/** Connectors from `<appRoot>/connectors/**` plus the config's `connectors`, which win on a clash. */
export class ConnectorRegistry {
  private readonly entries = new Map<string, ConnectorEntry>();

  static async load(
    appRoot: string | undefined,
    fromConfig: Record<string, ConnectorConfig> = {},
  ): Promise<ConnectorRegistry> {
    const registry = new ConnectorRegistry();
    if (appRoot) await registry.discover(join(appRoot, 'connectors'));
    for (const [id, config] of Object.entries(fromConfig))
      registry.entries.set(id, { id, config, source: `config connectors["${id}"]` });
    return registry;
  }

  get(id: string): ConnectorEntry | undefined {
    return this.entries.get(id);
  }

  ids(): string[] {
    return [...this.entries.keys()].sort();
  }

  /**
   * The last link of Yao's connector chain, made deterministic: in id order, the first chat
   * connector (`openai`, `anthropic`, `mock`) that declares `options.capabilities.tool_calls: true`
   * (Yao's notion of "capable"), else the first chat connector at all. Yao walks its registry map
   * in no fixed order; sorting by id makes a run repeatable.
   */
  firstCapable(): ConnectorEntry | undefined {
    const chat = this.ids()
      .map((id) => this.entries.get(id)!)
      .filter((entry) => CHAT_TYPES.has(entry.config.type));
    return chat.find((entry) => declaresToolCalls(entry.config)) ?? chat[0];
  }

  /** The error for an id nobody defines, listing what exists. */
  notFound(id: string, wantedBy: string): AgentestError {
    const known = this.ids();
    const list = known.length ? `known: ${known.join(', ')}` : 'no connectors are defined';
    return new AgentestError(
      'CONNECTOR_NOT_FOUND',
      `${wantedBy} names connector "${id}", which is not defined (${list}); add connectors/${id.replaceAll('.', '/')}.conn.yao or a "connectors" entry in the config${wantedBy === '-c' ? '' : known.length ? `, or pass -c ${known[0]} to use another for this run` : ''}`,
      { where: wantedBy },
    );
  }

  private async discover(dir: string): Promise<void> {
    let files: string[];
    try {
      files = await readdir(dir, { recursive: true });
    } catch {
      return;
    }
    for (const rel of files.filter((f) => DSL_FILE.test(f)).sort()) {
      const source = join(dir, rel);
      const value = await readJsonc(source, 'CONNECTOR_INVALID');
      const config = value as ConnectorConfig | null;
      if (!config || typeof config !== 'object' || Array.isArray(config) || typeof config.type !== 'string') {
        throw new AgentestError(
          'CONNECTOR_INVALID',
          `${source}: a connector needs a "type" (openai, anthropic or mock)`,
          { where: source },
        );
      }
      this.entries.set(connectorId(rel.split(sep).join('/')), { id: connectorId(rel), config, source });
    }
  }
}

function declaresToolCalls(config: ConnectorConfig): boolean {
  const capabilities = config.options?.capabilities;
  return (
    typeof capabilities === 'object' &&
    capabilities !== null &&
    (capabilities as Record<string, unknown>).tool_calls === true
  );
}
