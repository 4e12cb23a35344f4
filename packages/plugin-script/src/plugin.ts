import type { AgentestPlugin, Assertion, RunEvent } from '@agentest/kernel';
import { parseDuration } from '@agentest/common';
import type { ScriptExecutor } from './execute-script.js';
import { parseScriptOptions, sandboxOptions, type ScriptOptions } from './options.js';
import { acquireScriptPool } from './pool/shared-pool.js';
import type { ScriptPool } from './pool/types.js';
import { isScriptTestInput } from './resolve/script-test.js';
import { runScriptAssertion, scriptAssertionProblem } from './script-assertion.js';
import { withScriptHooks } from './script-hooks.js';
import { registerScriptLayout } from './script-layout.js';

export const PLUGIN_NAME = 'agentest:script';

/**
 * Yao script tests (`-i scripts.<assistant>.<module>`), the `script` assertion type, and the shared
 * sandbox pool, which starts on first use and is released at teardown.
 */
export default function script(options?: ScriptOptions): AgentestPlugin {
  return {
    name: PLUGIN_NAME,
    apply({ hooks }) {
      const opts = parseScriptOptions(options);
      registerScriptLayout({ hooks }, PLUGIN_NAME);
      const assertionTimeoutMs = parseDuration(opts.assertionTimeout ?? '30s', `${PLUGIN_NAME} assertionTimeout`);
      let lease: ReturnType<typeof acquireScriptPool> | undefined;
      const pool = (): ScriptPool => (lease ??= acquireScriptPool(sandboxOptions(opts))).pool;
      // The executor brings the judge and the snapshot store with it: loaded by the first script case.
      let executor: Promise<ScriptExecutor> | undefined;
      const scriptExecutor = () => (executor ??= loadExecutor(pool, opts.processes));
      // The sandbox's start-up is no case's time. Whatever shows before the run that it will use the
      // sandbox (a script suite, hook refs, a script assertion) starts it, and the run's `start`
      // event, sent before the clock of any case starts, waits until it is ready.
      let warming: Promise<void> | undefined;
      const warm = () => void (warming ??= pool().warm());
      hooks.report.tapPromise(
        { name: PLUGIN_NAME, deliver: (event: RunEvent) => (event.type === 'start' ? warming : undefined) },
        async (event) => {
          if (event.type === 'start') await warming;
        },
      );

      const generated: (() => Promise<void>)[] = [];
      hooks.load.tapPromise(PLUGIN_NAME, async (input, ctx) => {
        if (input.input.startsWith('scripts:')) {
          const { loadScriptGenerator } = await import('./script-generator.js');
          const made = await loadScriptGenerator(input.input, ctx, pool, opts.root);
          generated.push(made.dispose);
          return made.suite;
        }
        if (!isScriptTestInput(input.input, input.cwd)) return undefined;
        const { loadScriptSuite } = await import('./script-suite.js');
        const suite = await loadScriptSuite(input, opts.root);
        warm();
        return suite;
      });
      hooks.execute
        .for('script')
        .tapPromise(PLUGIN_NAME, async (testCase, ctx) => (await scriptExecutor()).execute(testCase, ctx));
      hooks.assert
        .for('script')
        .tapPromise(
          { name: PLUGIN_NAME, validate: (assertion: Assertion) => (warm(), scriptAssertionProblem(assertion)) },
          (assertion, input) =>
            runScriptAssertion(pool(), assertion, input, { root: opts.root, timeoutMs: assertionTimeoutMs }),
        );

      // Agent suites, whoever loaded them, get the Before/After hooks: the configured ones and those a
      // case names itself (`"before": "env_test.Before"` on a JSONL line). A suite that brings its own
      // lifecycle keeps it.
      const hookRefs = opts.hooks ?? {};
      hooks.suite.tap(PLUGIN_NAME, (suite, { plan }) => {
        if (!suite.needsAgent || suite.lifecycle) return undefined;
        if (Object.values(hookRefs).some(Boolean)) warm();
        // Hooks get the run's case timeout (a case's own `timeout` wins inside withScriptHooks).
        const timeoutMs = plan.timeoutMs ?? suite.defaultTimeoutMs;
        return withScriptHooks(suite, hookRefs, pool, { env: plan.env, ...(timeoutMs ? { timeoutMs } : {}) });
      });

      hooks.teardown.tapPromise(PLUGIN_NAME, async () => {
        await Promise.all(generated.splice(0).map((dispose) => dispose()));
        const held = lease;
        lease = undefined;
        warming = undefined;
        await held?.release();
      });
    },
  };
}

function loadExecutor(pool: () => ScriptPool, processes: ScriptOptions['processes']): Promise<ScriptExecutor> {
  return import('./execute-script.js').then((m) => new m.ScriptExecutor(pool, processes));
}
