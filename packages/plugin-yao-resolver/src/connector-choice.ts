import { AgentestError } from '@agentest/kernel';
import { isRole, ROLES, type AgentSettings } from './agent-settings.js';
import type { ConnectorRegistry } from './connector-registry.js';

/** Marks a connector value as a role of `agent/agent.yml` (`use::light`) rather than an id. */
export const ROLE_PREFIX = 'use::';

/** The connector a call uses and which link of Yao's chain picked it. */
export interface ConnectorChoice {
  id: string;
  /** The link, for the case trace: `-c`, `package.yao "use::light" → agent.yml system.light`, … */
  from: string;
  /** The flag or file blamed when the id names no connector or its client cannot be built. */
  blame: string;
}

/** What the chain reads: the app's connectors and its agent.yml roles. */
export interface ConnectorSources {
  connectors: ConnectorRegistry;
  settings: AgentSettings;
}

/**
 * A connector value as someone wrote it (`-c`, a case, a Create hook, package.yao): a plain id is
 * taken as it is; `use::<role>` goes through agent.yml's `system.<role>`, then `system.default`, as
 * in Yao, and `use::` alone means the default role. `label` is the short name of the writer for the
 * trace, `writer` the long one (a file path or a flag) for messages. Whether the id exists is checked
 * where the connector is used, so that a later link (the Create hook) can still replace it.
 */
export function resolveConnector(
  value: string,
  label: string,
  writer: string,
  { settings }: ConnectorSources,
): ConnectorChoice {
  if (!value.startsWith(ROLE_PREFIX)) return { id: value, from: label, blame: writer };
  const role = value.slice(ROLE_PREFIX.length) || 'default';
  if (!isRole(role)) {
    throw new AgentestError(
      'CONNECTOR_NOT_FOUND',
      `${writer} names connector "${value}", but "${role}" is not a role of ${settings.label}; the roles are ${ROLES.join(', ')}`,
      { where: writer },
    );
  }
  const assignment = settings.connectorFor(role);
  if (!assignment) {
    const unset = role === 'default' ? 'does not set system.default' : `sets neither system.${role} nor system.default`;
    const where = settings.found ? `${settings.label} ${unset}` : `there is no ${settings.label}`;
    throw new AgentestError(
      'CONNECTOR_NOT_FOUND',
      `${writer} names connector "${value}", but ${where}; add "system: { ${role}: <connector id> }" to agent/agent.yml or name a connector id directly`,
      { where: writer },
    );
  }
  const via = assignment.role === role ? `system.${role}` : `system.default (no system.${role})`;
  return { id: assignment.connector, from: `${label} "${value}" → agent.yml ${via}`, blame: assignment.where };
}

/**
 * The links after package.yao, for an assistant that names no connector: agent.yml's
 * `system.default`, then the first capable connector (see `ConnectorRegistry.firstCapable`).
 */
export function fallbackConnector({ settings, connectors }: ConnectorSources): ConnectorChoice | undefined {
  const byDefault = settings.assigned('default');
  if (byDefault) return { id: byDefault.connector, from: 'agent.yml system.default', blame: byDefault.where };
  const first = connectors.firstCapable();
  if (first) return { id: first.id, from: 'first capable connector', blame: first.source };
  return undefined;
}

/** The end of the chain: nothing named a connector and the app defines none that can chat. */
export function noConnector(assistantId: string, packageFile: string, settings: AgentSettings): AgentestError {
  return new AgentestError(
    'CONNECTOR_NOT_FOUND',
    `assistant "${assistantId}" has prompts but no connector: set "connector" in ${packageFile}, set system.default in ${settings.label}, ` +
      `add an openai, anthropic or mock connector under connectors/, pass -c <connector>, or set the case's options.connector`,
    { where: packageFile },
  );
}
