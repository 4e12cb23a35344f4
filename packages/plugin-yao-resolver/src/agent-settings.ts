import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isMap, isScalar, LineCounter, parseDocument, type Node } from 'yaml';
import { AgentestError } from '@agentest/kernel';

/**
 * The LLM roles Yao's `agent/agent.yml` assigns under `system`: `default` for every assistant that
 * names no connector, and four specialised ones that package.yao can ask for with `use::<role>`.
 */
export const ROLES = ['default', 'light', 'vision', 'audio', 'heavy'] as const;
export type Role = (typeof ROLES)[number];

/** One role's connector and the `file:line:col` that assigns it, for messages and traces. */
export interface RoleAssignment {
  role: Role;
  connector: string;
  where: string;
}

/**
 * `<app root>/agent/agent.yml`, the app-wide agent settings. Only the `system` block matters here:
 * `system.<role>: <connector id>`. The rest of the file (`uses`, `store`, per-system-agent
 * connectors such as `system.keyword`) drives parts of Yao that a test run does not start, and is
 * left alone. A missing file means no roles at all.
 */
export class AgentSettings {
  private constructor(
    /** Where the file is (or would be); named in messages even when it does not exist. */
    readonly file: string | undefined,
    /** False when there is no agent.yml (or no app root to look in). */
    readonly found: boolean,
    private readonly roles: ReadonlyMap<Role, RoleAssignment>,
  ) {}

  static readonly empty = new AgentSettings(undefined, false, new Map());

  static async load(appRoot: string | undefined): Promise<AgentSettings> {
    if (!appRoot) return AgentSettings.empty;
    const file = join(appRoot, 'agent', 'agent.yml');
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new AgentSettings(file, false, new Map());
      throw new AgentestError('CONFIG_INVALID', `cannot read ${file}: ${(error as Error).message}`, {
        where: file,
        cause: error,
      });
    }
    return new AgentSettings(file, true, parseRoles(text, file));
  }

  /** The connector a role names, without falling back. */
  assigned(role: Role): RoleAssignment | undefined {
    return this.roles.get(role);
  }

  /** Yao's rule for `use::<role>`: the role's own connector, else the `default` role's. */
  connectorFor(role: Role): RoleAssignment | undefined {
    return this.roles.get(role) ?? this.roles.get('default');
  }

  /** How messages point at the file: its path, or `agent/agent.yml` when there is no app root. */
  get label(): string {
    return this.file ?? 'agent/agent.yml';
  }
}

export function isRole(name: string): name is Role {
  return (ROLES as readonly string[]).includes(name);
}

function parseRoles(text: string, file: string): Map<Role, RoleAssignment> {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter });
  const at = (node: Node | null | undefined) => {
    if (!node?.range) return file;
    const { line, col } = lineCounter.linePos(node.range[0]);
    return `${file}:${line}:${col}`;
  };
  const syntax = doc.errors[0];
  if (syntax) {
    const where = syntax.linePos ? `${file}:${syntax.linePos[0].line}:${syntax.linePos[0].col}` : file;
    const reason = syntax.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    throw new AgentestError('CONFIG_INVALID', `${where}: invalid YAML (${reason})`, { where });
  }

  const roles = new Map<Role, RoleAssignment>();
  const root = doc.contents;
  if (root === null || (isScalar(root) && root.value === null)) return roles;
  if (!isMap(root))
    throw new AgentestError(
      'CONFIG_INVALID',
      `${at(root)}: agent.yml must be a mapping of settings (system, uses, …)`,
      { where: at(root) },
    );
  const system = root.get('system', true) as Node | undefined;
  if (system === undefined || (isScalar(system) && system.value === null)) return roles;
  if (!isMap(system)) {
    throw new AgentestError(
      'CONFIG_INVALID',
      `${at(system)}: "system" must map roles to connector ids, e.g. "default: openai.gpt-4o"`,
      { where: at(system) },
    );
  }
  for (const pair of system.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    if (!isRole(key)) continue; // per-system-agent connectors (keyword, title, …): not used by tests
    const value = pair.value as Node | null;
    const connector = isScalar(value) ? value.value : undefined;
    if (connector === null || connector === undefined || connector === '') continue; // an empty role is an unset role
    if (typeof connector !== 'string') {
      throw new AgentestError(
        'CONFIG_INVALID',
        `${at(value)}: system.${key} must be a connector id such as "openai.gpt-4o", got ${typeof connector}`,
        { where: at(value) },
      );
    }
    roles.set(key, { role: key, connector, where: at(value) });
  }
  return roles;
}
