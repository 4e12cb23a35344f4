import type { ToolCall } from '@agentest/kernel';
import { callTool } from '@agentest/cassettes';
import type { OfferedTool, ToolSet } from './assistant-tools.js';
import type { McpServer, McpTool } from './mcp-server.js';

/** Runs what stands behind a tool: a Yao process (process transport) or a call to an MCP server. */
export interface ToolBackends {
  process(name: string, args: unknown[], signal: AbortSignal): Promise<unknown>;
  external(server: McpServer, tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
}

/** One tool call the model made and what came of it, in the reply's shape and Yao's payload shape. */
export interface ExecutedTool {
  /** For the reply's `toolCalls`: `name` is what the model called (`server__tool`), `server` the server id. */
  call: ToolCall & { id: string };
  /** For a Next hook's `payload.tools` (Yao's `ToolCallResponse`). */
  payload: { toolcall_id: string; server: string; tool: string; arguments: string; result?: unknown; error?: string };
}

/**
 * Runs one call of the model's. Nothing here throws for what the tool or the model got wrong: an
 * unknown tool, arguments that are not an object, or a process that throws all become the call's
 * `error`, which goes back to the model as the tool's answer.
 */
export async function runToolCall(
  request: ToolCall,
  id: string,
  tools: ToolSet,
  backends: ToolBackends,
  signal: AbortSignal,
): Promise<ExecutedTool> {
  const offered = tools.byName.get(request.name);
  const rawArguments =
    typeof request.arguments === 'string' ? request.arguments : JSON.stringify(request.arguments ?? {});
  const split = request.name.indexOf('__');
  const server = offered?.server.id ?? (split > 0 ? request.name.slice(0, split).replaceAll('_', '.') : '');
  const tool = offered?.tool.name ?? (split > 0 ? request.name.slice(split + 2) : request.name);
  const done = (outcome: { result: unknown } | { error: string }): ExecutedTool => ({
    call: { id, ...(server ? { server } : {}), name: request.name, arguments: request.arguments ?? {}, ...outcome },
    payload: { toolcall_id: id, server, tool, arguments: rawArguments, ...outcome },
  });
  if (!offered) return done({ error: notOffered(request.name, split, tools) });
  if (!request.arguments || typeof request.arguments !== 'object' || Array.isArray(request.arguments)) {
    const what =
      typeof request.arguments === 'string'
        ? `failed to parse arguments: not JSON: ${request.arguments.slice(0, 80)}`
        : `arguments must be an object, got ${Array.isArray(request.arguments) ? 'a list' : typeof request.arguments}`;
    return done({ error: what });
  }
  try {
    const args = request.arguments as Record<string, unknown>;
    // The MCP tool boundary: with cassettes on, the result is recorded or replayed here.
    const result = await callTool(
      { server: offered.server.id, tool: offered.tool.name, arguments: args },
      () => invoke(offered, args, backends, signal),
      signal,
    );
    return done({ result });
  } catch (error) {
    if (signal.aborted) throw error;
    return done({ error: `Error executing tool ${tool}: ${error instanceof Error ? error.message : String(error)}` });
  }
}

/** The text a `tool` message carries back to the model: Yao's `Error: …`, or the result as JSON. */
export function toolMessageContent(executed: ExecutedTool): string {
  const { error, result } = executed.call;
  if (error) return `Error: ${error}`;
  return result === undefined || result === null ? '' : JSON.stringify(result);
}

async function invoke(
  offered: OfferedTool,
  args: Record<string, unknown>,
  backends: ToolBackends,
  signal: AbortSignal,
): Promise<unknown> {
  const { server, tool } = offered;
  if (server.transport !== 'process') return backends.external(server, tool.name, args, signal);
  return asToolResult(await backends.process(tool.process!, processArgs(tool, args), signal));
}

/** `x-process-args`: `":arguments"` = the whole object, `"$args.a.b"` / `"$a"` = a field, anything else = itself. */
export function processArgs(tool: McpTool, args: Record<string, unknown>): unknown[] {
  if (!tool.processArgs?.length) return [args];
  return tool.processArgs.map((spec) => {
    if (spec === ':arguments') return args;
    if (!spec.startsWith('$')) return spec;
    let value: unknown = args;
    for (const key of spec
      .slice(1)
      .replace(/^args\./, '')
      .split('.')) {
      if (!value || typeof value !== 'object')
        throw new Error(`failed to extract argument '${spec}': "${key}" is not inside an object`);
      value = (value as Record<string, unknown>)[key];
      if (value === undefined) return null;
    }
    return value;
  });
}

/**
 * What Yao hands on as a process tool's result: the value goes through MCP text content and back, so
 * nothing becomes `""`, a string holding JSON becomes that JSON, and anything else is a JSON copy.
 */
function asToolResult(value: unknown): unknown {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') return JSON.parse(JSON.stringify(value));
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function notOffered(name: string, split: number, tools: ToolSet): string {
  if (split <= 0) return `invalid MCP tool name format: ${name}`;
  const offered = [...tools.byName.keys()];
  return `tool "${name}" was not offered to the model (offered: ${offered.join(', ') || 'none'}); ${tools.chosenBy ?? 'package.yao "mcp.servers"'} decides which tools it gets`;
}
