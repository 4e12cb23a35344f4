import type { ExternalToolLister } from './assistant-tools.js';
import type { HookRunner } from './hook-runner.js';
import type { HookRuntimes } from './hook-runtime.js';
import type { McpClients } from './mcp-clients.js';
import type { ToolBackends } from './tool-runner.js';

/**
 * What runs behind an app's tools. A process-transport tool runs its process the way a hook's
 * `Process()` does (the app's `scripts.*` and `agents.*`, or the `processes` stubs), in the hooks'
 * sandbox, so the process may call `Process()` in turn. Servers on other transports are called
 * through their MCP connection.
 */
export function toolBackends(
  hooks: HookRunner,
  runtimes: HookRuntimes,
  clients: McpClients,
  app: { root?: string; cwd: string },
): ToolBackends & { listExternal: ExternalToolLister } {
  return {
    async process(name, args, signal) {
      const processes = await runtimes.processes(app.root, app.cwd);
      const target = await processes(name);
      if ('value' in target) return target.value;
      const result = await hooks.callFunction(target.file, target.fn, args, signal, { processes });
      switch (result.status) {
        case 'ok':
          return result.value;
        case 'missing':
          throw new Error(`Process("${name}"): ${target.file} has no function ${target.fn}`);
        default:
          throw new Error(result.error);
      }
    },
    external: (server, tool, args, signal) => clients.call(server, tool, args, signal),
    listExternal: (server) => clients.list(server),
  };
}
