import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseDuration, type AgentestPlugin, type LoadContext, type RunPlan, type Suite } from '@agentest/kernel';
import { ScriptExecutor } from './execute-script.js';
import { parseScriptOptions, sandboxOptions, type ScriptOptions } from './options.js';
import { acquireScriptPool } from './pool/shared-pool.js';
import type { ScriptPool } from './pool/types.js';
import { isScriptTestRef } from './resolve/script-test.js';
import { runScriptAssertion } from './script-assertion.js';
import { withScriptHooks } from './script-hooks.js';
import { loadScriptSuite } from './script-suite.js';

const NAME = 'agentest:script';

/**
 * Yao script tests (`-i scripts.<assistant>.<module>`), the `script` assertion type, and the shared
 * sandbox pool, which starts on first use and is released at teardown.
 */
export default function script(options?: ScriptOptions): AgentestPlugin {
  return {
    name: NAME,
    apply({ hooks }) {
      const opts = parseScriptOptions(options);
      const assertionTimeoutMs = parseDuration(opts.assertionTimeout ?? '30s', `${NAME} assertionTimeout`);
      let lease: ReturnType<typeof acquireScriptPool> | undefined;
      const pool = (): ScriptPool => (lease ??= acquireScriptPool(sandboxOptions(opts))).pool;
      const executor = new ScriptExecutor(pool, opts.processes);

      hooks.load.tapPromise(NAME, async (input) => {
        // `scripts.jsonl` is a file, not a script reference.
        if (!isScriptTestRef(input.input) || existsSync(resolve(input.cwd, input.input))) return undefined;
        return loadScriptSuite(input, opts.root);
      });
      hooks.execute.for('script').tapPromise(NAME, (testCase, ctx) => executor.execute(testCase, ctx));
      hooks.assert.for('script').tapPromise(NAME, (assertion, input) => runScriptAssertion(pool(), assertion, input, { root: opts.root, timeoutMs: assertionTimeoutMs }));

      // A bail hook cannot post-process another plugin's suite, but its `result` interceptor sees the
      // suite before the kernel does: agent suites get the Before/After hooks there, the configured
      // ones and those a case names itself (`"before": "env_test.Before"` on a JSONL line).
      const hookRefs = opts.hooks ?? {};
      let plan: RunPlan | undefined;
      hooks.load.intercept({
        call: (_input: unknown, ctx: LoadContext) => void (plan = ctx.plan),
        result: (suite: Suite | undefined) => {
          if (!suite?.needsAgent || suite.lifecycle) return;
          // Hooks get the run's case timeout (a case's own `timeout` wins inside withScriptHooks).
          const timeoutMs = plan?.timeoutMs ?? suite.defaultTimeoutMs;
          Object.assign(suite, { lifecycle: withScriptHooks(suite, hookRefs, pool, { env: plan?.env, ...(timeoutMs ? { timeoutMs } : {}) }).lifecycle });
        },
      });

      hooks.teardown.tapPromise(NAME, async () => {
        const held = lease;
        lease = undefined;
        await held?.release();
      });
    },
  };
}
