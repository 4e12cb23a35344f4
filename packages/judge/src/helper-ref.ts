/**
 * Who plays a helper role (judge, simulated user, generator): a Yao assistant or config agent
 * (`agents:<id>`, Yao's form), or a bare connector (`connector:<id>`) that agentest prompts itself.
 */
export interface HelperRef {
  kind: 'agent' | 'connector';
  id: string;
  /** The reference as written, for messages. */
  use: string;
}

export const AGENT_PREFIX = 'agents:';
export const CONNECTOR_PREFIX = 'connector:';

/**
 * Reads a `use` value. Yao requires the `agents:` prefix (case-sensitive, removed once); agentest
 * also takes `connector:`. Anything else is answered with what to write instead.
 */
export function parseHelperRef(use: unknown): HelperRef | { problem: string } {
  if (typeof use !== 'string' || use === '')
    return { problem: `needs "use": "agents:<assistant-or-agent-id>" or "connector:<connector-id>"` };
  for (const [prefix, kind] of [
    [AGENT_PREFIX, 'agent'],
    [CONNECTOR_PREFIX, 'connector'],
  ] as const) {
    if (!use.startsWith(prefix)) continue;
    const id = use.slice(prefix.length);
    if (!id.trim()) return { problem: `"use": ${JSON.stringify(use)} names no id after "${prefix}"` };
    return { kind, id, use };
  }
  return {
    problem: `"use": ${JSON.stringify(use)} must start with "agents:" (an assistant or config agent) or "connector:" (a connector with the built-in judge prompt)`,
  };
}

/** The id the run's resolvers know the helper by: the agent id, or `connector:<id>`. */
export function resolverId(ref: HelperRef): string {
  return ref.kind === 'agent' ? ref.id : `${CONNECTOR_PREFIX}${ref.id}`;
}
