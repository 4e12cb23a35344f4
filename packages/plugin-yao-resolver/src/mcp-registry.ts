import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { locateById } from './locate.js';
import { loadMcpServer, type McpServer } from './mcp-server.js';

const EXTENSIONS = ['.mcp.yao', '.mcp.json', '.mcp.jsonc'];
const ASSISTANT_PREFIX = 'agents.';

/**
 * The MCP servers of one Yao app, by id, as Yao registers them: `<root>/mcps/foo/bar.mcp.yao` is
 * `foo.bar`, and an assistant's `assistants/<id>/mcps/tools.mcp.yao` is `agents.<id>.tools` (any
 * assistant may use another's). Each file is read on first use, once per run.
 */
export class McpRegistry {
  private readonly loaded = new Map<string, Promise<McpServer | undefined>>();
  private appFiles?: Map<string, string>;

  constructor(private readonly root: string | undefined) {}

  server(id: string): Promise<McpServer | undefined> {
    let server = this.loaded.get(id);
    if (!server) {
      server = this.load(id);
      server.catch(() => this.loaded.delete(id));
      this.loaded.set(id, server);
    }
    return server;
  }

  /** The ids of `<root>/mcps/**`, for messages about an unknown id. */
  appServerIds(): string[] {
    return [...this.appServers().keys()].sort();
  }

  private async load(id: string): Promise<McpServer | undefined> {
    const appFile = this.appServers().get(id);
    if (appFile) return loadMcpServer(appFile, id, join(this.root!, 'mcps', 'mapping', ...id.split('.')), this.root);
    return id.startsWith(ASSISTANT_PREFIX) ? this.loadFromAssistant(id) : undefined;
  }

  /** `agents.team.bot.tools` → the longest assistant id with a matching `mcps/<name>.mcp.yao`. */
  private async loadFromAssistant(id: string): Promise<McpServer | undefined> {
    if (!this.root) return undefined;
    const parts = id.slice(ASSISTANT_PREFIX.length).split('.');
    for (let split = parts.length - 1; split >= 1; split--) {
      const dir = locateById(this.root, parts.slice(0, split).join('.'));
      if (!dir) continue;
      const name = parts.slice(split);
      const file = EXTENSIONS.map((ext) => join(dir, 'mcps', ...name.slice(0, -1), `${name.at(-1)}${ext}`)).find((f) =>
        existsSync(f),
      );
      if (file) return loadMcpServer(file, id, join(dir, 'mcps', 'mapping', ...name), this.root);
    }
    return undefined;
  }

  private appServers(): Map<string, string> {
    if (this.appFiles) return this.appFiles;
    this.appFiles = new Map();
    const dir = this.root ? join(this.root, 'mcps') : undefined;
    if (!dir || !existsSync(dir)) return this.appFiles;
    for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      const ext = EXTENSIONS.find((e) => entry.endsWith(e));
      if (!ext) continue;
      const id = entry.slice(0, -ext.length).split(/[\\/]/).join('.');
      this.appFiles.set(id, join(dir, entry));
    }
    return this.appFiles;
  }
}
