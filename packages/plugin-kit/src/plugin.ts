import type { AgentestPlugin } from '@agentest/kernel';
import { acquireScriptPool, type ScriptPool } from '@agentest/plugin-script';
import { discoverKitInput } from './discover.js';
import { executeSpec, type SpecSandbox } from './execute-spec.js';
import { registerKitLayout } from './console/kit-layout.js';
import { buildKitSuite } from './kit-suite.js';
import { validateKitOptions, type KitOptions } from './options.js';
import { SandboxEntries, sandboxAliases } from './sandbox-entry.js';
import { listTests } from './spec-files.js';

export const PLUGIN_NAME = 'agentest:kit';

/**
 * agentest-kit mode: `-i` a directory, glob, cases.json or test file loads one suite mixing
 * data-driven `agent` cases and `test()` functions (`spec` cases), which run in the script sandbox
 * with `ctx.run` calling the suite's agent. The sandbox pool is taken only when a run has test files.
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
        const found = await discoverKitInput(input.input, input.cwd, validated.include);
        if (!found) return undefined;
        const list = (file: string) => listTests(sandbox.pool(), entries, sandbox.aliases(), file, input.cwd);
        const suite = await buildKitSuite(found, input.cwd, list, validated.agent, plan.forbidOnly === true);
        return suite;
      });
      hooks.execute.for('spec').tapPromise(PLUGIN_NAME, (testCase, ctx) => executeSpec(testCase, ctx, sandbox));
      hooks.teardown.tapPromise(PLUGIN_NAME, async () => {
        entries.dispose();
        const releasing = held;
        held = undefined;
        await releasing?.release();
      });
    },
  };
}
