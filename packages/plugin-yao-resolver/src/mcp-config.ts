import { AgentestError } from '@agentest/kernel';

/** One entry of `mcp.servers`: a server id, optionally narrowed to some of its tools. */
export interface ServerUse {
  server_id: string;
  /** Tool names (without the server prefix); absent or empty = every tool of the server. */
  tools?: string[];
  resources?: string[];
}

/** package.yao `mcp`: which servers' tools the model gets, and how the automatic tool loop runs. */
export interface McpConfig {
  servers: ServerUse[];
  /** `mcp.options.tool_loop`; Yao's default is on, only an explicit `false` turns it off. */
  toolLoop: boolean;
  /** `mcp.options.max_turn`: LLM calls the loop may make after the first (Yao's default is 5). */
  maxTurns: number;
}

/** Yao's `getMaxToolLoopTurns` default. */
export const DEFAULT_MAX_TURNS = 5;

/** Reads package.yao's `mcp` (`{servers: [...], options: {tool_loop, max_turn}}` or a bare list of ids). */
export function readMcpConfig(value: unknown, where: string): McpConfig | undefined {
  if (value === undefined || value === null) return undefined;
  const config = Array.isArray(value) ? { servers: value } : value;
  if (typeof config !== 'object' || Array.isArray(config))
    throw invalid(where, '"mcp" must be an object { servers: [...] }');
  const { servers, options } = config as { servers?: unknown; options?: unknown };
  const opts =
    options && typeof options === 'object' && !Array.isArray(options) ? (options as Record<string, unknown>) : {};
  const maxTurn = opts.max_turn;
  return {
    servers: readServerUses(servers ?? [], where, '"mcp.servers"'),
    toolLoop: opts.tool_loop !== false,
    maxTurns: typeof maxTurn === 'number' && maxTurn > 0 ? Math.floor(maxTurn) : DEFAULT_MAX_TURNS,
  };
}

/** A list of `"server-id"` or `{server_id, tools?, resources?}`, from package.yao or a Create hook. */
export function readServerUses(value: unknown, where: string, what: string): ServerUse[] {
  if (!Array.isArray(value))
    throw invalid(where, `${what} must be a list of server ids or { server_id, tools? } objects`);
  return value.map((entry, i) => {
    if (typeof entry === 'string' && entry) return { server_id: entry };
    const e = entry as Record<string, unknown> | null;
    if (!e || typeof e !== 'object' || typeof e.server_id !== 'string' || !e.server_id) {
      throw invalid(where, `${what}[${i}] must be a server id or an object with a "server_id"`);
    }
    return {
      server_id: e.server_id,
      ...(Array.isArray(e.tools) ? { tools: e.tools.map(String) } : {}),
      ...(Array.isArray(e.resources) ? { resources: e.resources.map(String) } : {}),
    };
  });
}

function invalid(where: string, problem: string): AgentestError {
  return new AgentestError('CONFIG_INVALID', `${where}: ${problem}`, { where });
}
