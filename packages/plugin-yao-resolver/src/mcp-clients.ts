import { AgentestError, registerSecret } from '@agentest/kernel';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpServer, McpTool } from './mcp-server.js';

/** Lines of a stdio server's stderr kept for the message when it fails to start. */
const STDERR_LINES = 20;

interface Connection {
  client: Client;
  stderr: string[];
}

/**
 * Connections to the MCP servers that run outside agentest (`stdio`, `sse`, `http`), through the
 * official MCP SDK (loaded on first use). One connection per server and run, opened when its tools
 * are first listed; `close()` ends them all (a stdio server's process with it).
 */
export class McpClients {
  private readonly connections = new Map<string, Promise<Connection>>();

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    /** Where a stdio server's command runs: the app root, else the working directory. */
    private readonly cwd: string,
  ) {}

  /** The server's tools, as it lists them. Failing to reach it is a configuration error naming its file. */
  async list(server: McpServer): Promise<McpTool[]> {
    const { client, stderr } = await this.connect(server);
    try {
      const { tools } = await client.listTools();
      return tools.map((t) => ({
        name: t.name,
        description: t.description ?? '',
        inputSchema: t.inputSchema as Record<string, unknown>,
      }));
    } catch (error) {
      throw unreachable(server, error, stderr);
    }
  }

  /** Calls a tool; its result is read as Yao reads MCP content, and an `isError` result throws its text. */
  async call(server: McpServer, tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
    const { client } = await this.connect(server);
    const result = await client.callTool({ name: tool, arguments: args }, undefined, { signal });
    const content = Array.isArray(result.content) ? (result.content as Array<Record<string, unknown>>) : [];
    if (result.isError)
      throw new Error(
        content.map((c) => (typeof c.text === 'string' ? c.text : JSON.stringify(c))).join('\n') ||
          'the server reported an error',
      );
    return parsedContent(content);
  }

  async close(): Promise<void> {
    const open = [...this.connections.values()];
    this.connections.clear();
    await Promise.allSettled(open.map(async (c) => (await c).client.close()));
  }

  private connect(server: McpServer): Promise<Connection> {
    let connection = this.connections.get(server.id);
    if (!connection) {
      connection = this.open(server);
      connection.catch(() => this.connections.delete(server.id));
      this.connections.set(server.id, connection);
    }
    return connection;
  }

  private async open(server: McpServer): Promise<Connection> {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const client = new Client({ name: 'agentest', version: '0.1.0' });
    const stderr: string[] = [];
    const transport = await this.transport(server, stderr);
    try {
      await client.connect(transport);
    } catch (error) {
      throw unreachable(server, error, stderr);
    }
    return { client, stderr };
  }

  private async transport(server: McpServer, stderr: string[]) {
    const dsl = server.dsl;
    if (server.transport === 'stdio') {
      const { StdioClientTransport, getDefaultEnvironment } = await import('@modelcontextprotocol/sdk/client/stdio.js');
      if (typeof dsl.command !== 'string' || !dsl.command) throw invalid(server, 'a stdio server needs a "command"');
      const args = list(dsl.args ?? dsl.arguments);
      const transport = new StdioClientTransport({
        command: dsl.command,
        args,
        env: { ...getDefaultEnvironment(), ...this.strings(dsl.env) },
        cwd: this.cwd,
        stderr: 'pipe',
      });
      transport.stderr?.on('data', (chunk: Buffer) => {
        stderr.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        stderr.splice(0, Math.max(0, stderr.length - STDERR_LINES));
      });
      return transport;
    }
    if (typeof dsl.url !== 'string' || !dsl.url) throw invalid(server, `an ${server.transport} server needs a "url"`);
    const headers = this.strings(dsl.headers, true);
    const token = typeof dsl.authorization_token === 'string' ? this.expand(dsl.authorization_token, true) : '';
    if (token && !headers.Authorization)
      headers.Authorization = token.startsWith('Bearer ') ? token : `Bearer ${token}`;
    const requestInit = { headers };
    if (server.transport === 'sse') {
      const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
      return new SSEClientTransport(new URL(dsl.url), { requestInit });
    }
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    return new StreamableHTTPClientTransport(new URL(dsl.url), { requestInit });
  }

  /** A map of strings from the DSL, `$ENV.NAME` values expanded as Yao does (`""` when unset). */
  private strings(value: unknown, secret = false): Record<string, string> {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.expand(String(v), secret)]));
  }

  /** `secret`: the values are credentials (headers, tokens), redacted from every report and log. */
  private expand(value: string, secret = false): string {
    // Inside a header ("Bearer $ENV.TOKEN") as well as as a whole value.
    return value.replace(/\$ENV\.([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
      const expanded = this.env[name] ?? '';
      if (secret) registerSecret(expanded);
      return expanded;
    });
  }
}

/**
 * Yao's `ParsedContent`: text parts holding JSON become that JSON, other text stays text, images
 * keep `{type, data, mimeType}`, resources their `resource`; one part is returned alone.
 */
export function parsedContent(content: Array<Record<string, unknown>>): unknown {
  const values = content.map((part) => {
    if (part.type === 'text' && typeof part.text === 'string') {
      try {
        return JSON.parse(part.text) as unknown;
      } catch {
        return part.text;
      }
    }
    if (part.type === 'image') return { type: 'image', data: part.data, mimeType: part.mimeType };
    if (part.type === 'resource') return part.resource;
    return part;
  });
  return values.length === 1 ? values[0] : values.length ? values : null;
}

function list(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

function invalid(server: McpServer, problem: string): AgentestError {
  return new AgentestError('CONFIG_INVALID', `${server.file}: ${problem}`, { where: server.file });
}

function unreachable(server: McpServer, error: unknown, stderr: string[]): AgentestError {
  const detail = error instanceof Error ? error.message : String(error);
  const output = stderr.length ? `; its stderr ended with:\n  ${stderr.join('\n  ')}` : '';
  const how =
    server.transport === 'stdio'
      ? `starting "${String(server.dsl.command)}"`
      : `connecting to ${String(server.dsl.url)}`;
  return new AgentestError(
    'CONFIG_INVALID',
    `${server.file}: MCP server "${server.id}" could not be reached (${how}): ${detail}${output}`,
    { where: server.file },
  );
}
