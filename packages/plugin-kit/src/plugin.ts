import type { AgentestPlugin } from '@agentest/kernel';
import { acquireScriptPool, type ScriptPool } from '@agentest/plugin-script/sandbox';
import type { SpecSandbox } from './execute-spec.js';
import { registerKitLayout } from './console/kit-layout.js';
import { validateKitOptions, type KitOptions } from './options.js';
import { SandboxEntries, sandboxAliases } from './sandbox-entry.js';

export const PLUGIN_NAME = 'agentest:kit';

/**
 * agentest-kit mode: `-i` a directory, glob, cases.json or test file loads one suite mixing
 * data-driven `agent` cases and `test()` functions (`spec` cases), which run in the script sandbox
 * with `ctx.run` calling the suite's agent. The sandbox pool is taken only when a run has test files.
 * The discovery, the suite builder and the `test()` runner (with `expect`) load when an input asks
 * for them: a run of a JSONL file never does.
 */
export function kit(options: KitOptions = {}): AgentestPlugin {
  return {
    name: PLUGIN_NAME,
    apply({ hooks }) {
      const validated = validateKitOptions(options, PLUGIN_NAME);
      registerKitLayout({ hooks }, PLUGIN_NAME);
      const entries = new SandboxEntries();
      let held: { pool: ScriptPool; release(): Promise<void> } | undefined;
      let aliases: Record<string, string> | undefined;
      const sandbox: SpecSandbox = {
        pool: () => (held ??= acquireScriptPool(validated.sandbox)).pool,
        entries,
        aliases: () => (aliases ??= sandboxAliases()),
      };

      hooks.load.tapPromise(PLUGIN_NAME, async (input, { plan }) => {
        const { discoverKitInput } = await import('./discover.js');
        const found = await discoverKitInput(input.input, input.cwd, validated.include);
        if (!found) return undefined;
        const [{ listTests }, { buildKitSuite }] = await Promise.all([
          import('./spec-files.js'),
          import('./kit-suite.js'),
        ]);
        const list = (file: string) => listTests(sandbox.pool(), entries, sandbox.aliases(), file, input.cwd);
        const suite = await buildKitSuite(found, input.cwd, list, validated.agent, plan.forbidOnly === true);
        return suite;
      });
      hooks.execute.for('spec').tapPromise(PLUGIN_NAME, async (testCase, ctx) => {
        const { executeSpec } = await import('./execute-spec.js');
        return executeSpec(testCase, ctx, sandbox);
      });
      hooks.teardown.tapPromise(PLUGIN_NAME, async () => {
        entries.dispose();
        const releasing = held;
        held = undefined;
        await releasing?.release();
      });
    },
  };
}

export default kit;
