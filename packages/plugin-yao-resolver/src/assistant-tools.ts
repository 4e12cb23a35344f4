import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AgentestError } from '@agentest/kernel';
import type { ServerUse } from './mcp-config.js';
import { samplesPrompt } from './mcp-samples.js';
import type { McpRegistry } from './mcp-registry.js';
import type { McpServer, McpTool } from './mcp-server.js';

/** Yao's `MaxMCPTools`: tools past this many are not offered, so as not to overwhelm the model. */
export const MAX_MCP_TOOLS = 20;

/** A tool the model was offered, under the name the model calls it by. */
export interface OfferedTool {
  /** `server__tool`, dots of the server id turned into `_` (Yao's `MCPToolName`). */
  name: string;
  server: McpServer;
  tool: McpTool;
}

/** The `tools` of a chat request, and how to find each one when the model calls it. */
export interface ToolSet {
  definitions: Array<{
    type: 'function';
    function: { name: string; description: string; parameters: Record<string, unknown> };
  }>;
  byName: Map<string, OfferedTool>;
  /** The "MCP Tool Usage Examples" system message, when offered tools have samples. */
  samples?: string;
  /** Who chose these servers, for messages: package.yao's `mcp.servers` or a Create hook's `mcp_servers`. */
  chosenBy?: string;
}

/** Lists the tools of a server that is not process-backed (stdio, sse, http). */
export type ExternalToolLister = (server: McpServer, signal?: AbortSignal) => Promise<McpTool[]>;

/** `("agents.bot.tools", "search")` → `agents_bot_tools__search`, as Yao names tools for the model. */
export function mcpToolName(serverId: string, tool: string): string {
  return `${serverId.replaceAll('.', '_')}__${tool}`;
}

/**
 * The tools an assistant offers the model, in the order of `servers` and of each server's tools,
 * narrowed by each entry's `tools` list and capped at MAX_MCP_TOOLS. `writer` is whoever chose
 * the servers (package.yao or a Create hook), for messages; an unknown server or tool name is a
 * mistake the message points at, where Yao would only log it and leave the tool out.
 */
export async function offerTools(
  uses: ServerUse[],
  registry: McpRegistry,
  assistant: { id: string; dir: string },
  writer: string,
  listExternal: ExternalToolLister,
): Promise<ToolSet> {
  const set: ToolSet = { definitions: [], byName: new Map(), chosenBy: describeWriter(writer) };
  for (const use of uses) {
    const server = await registry.server(use.server_id);
    if (!server) throw unknownServer(use.server_id, registry, assistant, writer);
    const tools = server.transport === 'process' ? server.tools : await listExternal(server);
    const wanted = use.tools?.length ? new Set(use.tools) : undefined;
    for (const name of wanted ?? []) {
      if (!tools.some((t) => t.name === name)) {
        throw new AgentestError(
          'CONFIG_INVALID',
          `${writer} asks for tool "${name}" of MCP server "${server.id}", which ${server.file} does not define (it has: ${tools.map((t) => t.name).join(', ') || 'no tools'})`,
          { where: writer },
        );
      }
    }
    for (const tool of tools) {
      if (set.byName.size >= MAX_MCP_TOOLS) break;
      if (wanted && !wanted.has(tool.name)) continue;
      const name = mcpToolName(server.id, tool.name);
      set.byName.set(name, { name, server, tool });
      set.definitions.push({
        type: 'function',
        function: { name, description: tool.description, parameters: tool.inputSchema },
      });
    }
  }
  const samples = samplesPrompt(
    [...set.byName.values()].map(({ name, tool }) => ({
      name,
      description: tool.description,
      samples: tool.samples ?? [],
    })),
  );
  return samples ? { ...set, samples } : set;
}

/** `…/package.yao` → `package.yao "mcp.servers"`; a Create hook's writer → its `mcp_servers`. */
function describeWriter(writer: string): string {
  return writer.endsWith('package.yao') ? 'package.yao "mcp.servers"' : `"mcp_servers" from ${writer}`;
}

function unknownServer(
  id: string,
  registry: McpRegistry,
  assistant: { id: string; dir: string },
  writer: string,
): AgentestError {
  const own = ['.mcp.yao', '.mcp.json', '.mcp.jsonc'].some((ext) =>
    existsSync(join(assistant.dir, 'mcps', ...id.split('.').slice(0, -1), `${id.split('.').at(-1)}${ext}`)),
  );
  const hint = own
    ? `; the assistant's own mcps/ servers are registered as "agents.${assistant.id}.${id}", use that id`
    : `; define it in mcps/${id.replaceAll('.', '/')}.mcp.yao (known: ${registry.appServerIds().join(', ') || 'none'})`;
  return new AgentestError('CONFIG_INVALID', `${writer} names MCP server "${id}", which is not defined${hint}`, {
    where: writer,
  });
}
