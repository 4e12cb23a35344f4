import type { ProcessResolver, ProcessStub, YaoRuntimeOptions } from '@agentest/plugin-script';
import { findAppRoot } from './app-root.js';

/**
 * Yao's runtime for each assistant's hooks: `ctx` (argument 0 of Create and Next) gets Yao's output
 * methods, and `Process(name, ...args)` runs `scripts.*` and `agents.*` from the assistant's app, or
 * the config's stubs. One process resolver per app root and working directory, made on first use;
 * the sandbox package is loaded lazily, as for the hooks themselves.
 */
export class HookRuntimes {
  private readonly apps = new Map<string, { root?: string; cwd: string }>();
  private readonly resolvers = new Map<string, Promise<ProcessResolver>>();

  constructor(private readonly stubs: Record<string, ProcessStub>) {}

  /** Where the hooks of `hookFile` live: their app root, and the directory stub paths start from. */
  register(hookFile: string, root: string | undefined, cwd: string): void {
    this.apps.set(hookFile, { ...(root ? { root } : {}), cwd });
  }

  for(hookFile: string): Promise<YaoRuntimeOptions> {
    const app = this.apps.get(hookFile) ?? { root: findAppRoot(hookFile)?.dir, cwd: process.cwd() };
    return this.processes(app.root, app.cwd).then((processes) => ({ ctxArg: 0, processes }));
  }

  /** What `Process(name)` runs in an app, for hooks and for the processes behind MCP tools alike. */
  processes(root: string | undefined, cwd: string): Promise<ProcessResolver> {
    const key = `${root ?? ''}\0${cwd}`;
    let resolver = this.resolvers.get(key);
    if (!resolver) {
      resolver = import('@agentest/plugin-script').then(({ yaoProcessResolver }) =>
        yaoProcessResolver({ ...(root ? { root } : {}), cwd, stubs: this.stubs, stubHint }),
      );
      this.resolvers.set(key, resolver);
    }
    return resolver;
  }
}

function stubHint(name: string): string {
  const fn = name.split('.').at(-1);
  return `To test it, stub it in agentest.config.ts: yaoResolver({ processes: { "${name}": { value: <what it returns> } } }), or { module: "./stubs.ts", export: "${fn}" } to run a function of your own`;
}
