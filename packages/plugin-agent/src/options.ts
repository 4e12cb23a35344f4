import * as z from 'zod';
import { lazy } from '@agentest/common';
import type { ConnectorConfig } from '@agentest/connectors';
import { AgentestError, type Agent, type Message } from '@agentest/kernel';
import type { Adapter } from './adapter.js';
import type { AgentDefinition } from './define.js';
import {
  adapterShape,
  agentShape,
  connectorAgentShape,
  describe,
  formatIssues,
  shapeOf,
  SHAPES_HINT,
} from './shapes.js';

/** A config agent: an agentest-kit adapter, an agent, or a connector with prompts. */
export type AgentConfig =
  | Adapter
  | (Pick<Agent, 'run'> & Partial<Agent>)
  | { connector: string; prompts?: { role: string; content: string }[]; options?: Record<string, unknown> };

export interface AgentsPluginOptions {
  /** Config agents by id: adapters, agents, or connector agents. */
  agents?: Record<string, AgentConfig>;
  /** Connector definitions by id, for connector agents. */
  connectors?: Record<string, ConnectorConfig>;
  /** Where relative paths (`-n mock:<path>`) start; defaults to the run's working directory. */
  cwd?: string;
}

/** A config agent after validation, tagged with its shape. */
export type AgentEntry =
  | { shape: 'adapter'; value: Adapter }
  | { shape: 'agent'; value: AgentDefinition }
  | { shape: 'connector'; value: { connector: string; prompts?: Message[]; options?: Record<string, unknown> } };

export interface ValidatedOptions {
  agents: Map<string, AgentEntry>;
  connectors: Record<string, ConnectorConfig>;
  cwd?: string;
}

const optionsShape = z.strictObject({
  agents: z.record(z.string(), z.unknown()).optional(),
  connectors: z.record(z.string(), z.unknown()).optional(),
  cwd: z.string().min(1).optional(),
});

const connectorShape = lazy(() =>
  z.looseObject({ type: z.string().min(1, 'must name a connector type (openai, anthropic, mock)') }),
);

/**
 * Checks the plugin's options without touching the network or the disk: the option keys
 * (PLUGIN_INVALID), each connector's type (CONNECTOR_INVALID), and each agent's shape
 * (CONFIG_INVALID naming `agents.<key>`), including that a connector agent names a known connector.
 */
export function validateOptions(raw: unknown, plugin: string): ValidatedOptions {
  const parsed = optionsShape.safeParse(raw ?? {});
  if (!parsed.success)
    throw new AgentestError('PLUGIN_INVALID', `${plugin} options: ${formatIssues('', parsed.error)}`, {
      where: plugin,
    });
  const { agents = {}, connectors = {}, cwd } = parsed.data;
  for (const [id, config] of Object.entries(connectors)) {
    const where = `connectors.${id}`;
    if (!config || typeof config !== 'object')
      throw new AgentestError(
        'CONNECTOR_INVALID',
        `${where}: expected a connector definition { type, … }, got ${describe(config)}`,
        { where },
      );
    const checked = connectorShape().safeParse(config);
    if (!checked.success) throw new AgentestError('CONNECTOR_INVALID', formatIssues(where, checked.error), { where });
  }
  const entries = new Map<string, AgentEntry>();
  for (const [key, value] of Object.entries(agents))
    entries.set(key, validateAgent(key, value, connectors as Record<string, ConnectorConfig>));
  return { agents: entries, connectors: connectors as Record<string, ConnectorConfig>, ...(cwd ? { cwd } : {}) };
}

function validateAgent(key: string, value: unknown, connectors: Record<string, ConnectorConfig>): AgentEntry {
  const where = `agents.${key}`;
  const shape = shapeOf(value);
  if (!shape)
    throw new AgentestError('CONFIG_INVALID', `${where}: expected ${SHAPES_HINT}, got ${describeEntry(value)}`, {
      where,
    });
  const schema = shape === 'adapter' ? adapterShape() : shape === 'agent' ? agentShape() : connectorAgentShape();
  const checked = schema.safeParse(value);
  if (!checked.success)
    throw new AgentestError(
      'CONFIG_INVALID',
      `${formatIssues(where, checked.error)} (${shape === 'connector' ? 'a connector agent' : `an ${shape}`} is ${hintFor(shape)})`,
      { where },
    );
  if (shape === 'connector') {
    const entry = value as { connector: string };
    if (!Object.hasOwn(connectors, entry.connector)) {
      const known = Object.keys(connectors);
      throw new AgentestError(
        'CONFIG_INVALID',
        `${where}.connector: "${entry.connector}" is not defined in connectors (${known.length ? `known: ${known.join(', ')}` : 'none are defined'}); add it under connectors`,
        { where: `${where}.connector` },
      );
    }
  }
  return { shape, value } as AgentEntry;
}

function hintFor(shape: 'adapter' | 'agent' | 'connector'): string {
  if (shape === 'adapter') return '{ call(input), evaluate?(callResult, input) }';
  if (shape === 'agent') return '{ run(messages, ctx, signal, call?) }';
  return '{ connector, prompts?: Message[], options?: {…} }';
}

function describeEntry(value: unknown): string {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    return keys.length ? `an object with ${keys.join(', ')}` : 'an empty object';
  }
  return describe(value);
}
