import { dirname, resolve } from 'node:path';
import type { AssertInput, Assertion, AssertionOutcome } from '@agentest/kernel';
import type { ScriptPool } from './pool/types.js';
import { scriptFunctionRoot } from './resolve/app-root.js';
import { resolveScriptFunction } from './resolve/script-function.js';

/**
 * `{"type": "script", "script": "scripts.test.ValidateOutput"}`: calls `ValidateOutput(output, input,
 * value)` in the sandbox. The third argument is the assertion's `value` (what Yao passes) or, when it
 * has none, the case's `expected` (what the seed describes). The function returns a boolean or
 * `{pass, message}`. A throw, a rejection, a timeout, a missing function or any other return value
 * is no verdict: the outcome says the assertion could not be evaluated, and the kernel makes the run
 * an `error` with the reason, whether the assertion is negated or not.
 */
export async function runScriptAssertion(
  pool: ScriptPool,
  assertion: Assertion,
  input: AssertInput,
  options: { root?: string; timeoutMs: number },
): Promise<AssertionOutcome> {
  const problem = scriptAssertionProblem(assertion);
  if (problem) return { pass: false, error: problem };
  const script = assertion.script as string;
  const from = dirname(resolve(input.plan.input.cwd, input.testCase.source.file));
  const { file, fn } = resolveScriptFunction(script, scriptFunctionRoot(from, options.root));
  const expected = assertion.value ?? input.testCase.expected;
  const result = await pool.call(
    {
      file,
      fn,
      args: [plain(input.output), plain(input.testCase.input), plain(expected)],
      timeoutMs: options.timeoutMs,
    },
    input.signal,
  );
  switch (result.status) {
    case 'missing':
      return { pass: false, error: `${script}: no function ${fn} in ${file}` };
    case 'error':
    case 'timeout':
      return {
        pass: false,
        error: `${script} ${result.status === 'timeout' ? 'timed out' : 'failed'}: ${result.error}`,
      };
    default:
      return verdict(script, result.value);
  }
}

/** What is wrong with how a script assertion is written, checked before the run. */
export function scriptAssertionProblem(assertion: Assertion): string | undefined {
  if (typeof assertion.script === 'string' && assertion.script) return undefined;
  return 'a script assertion needs "script": "scripts.<module>.<Function>"';
}

function verdict(script: string, value: unknown): AssertionOutcome {
  if (typeof value === 'boolean') return { pass: value, ...(value ? {} : { message: `${script} returned false` }) };
  if (value && typeof value === 'object' && typeof (value as { pass?: unknown }).pass === 'boolean') {
    const { pass, message } = value as { pass: boolean; message?: unknown };
    return {
      pass,
      ...(message !== undefined
        ? { message: String(message) }
        : pass
          ? {}
          : { message: `${script} returned pass: false` }),
    };
  }
  return {
    pass: false,
    error: `${script} returned ${JSON.stringify(value) ?? String(value)}; return a boolean or {pass, message}`,
  };
}

/** Values sent to the sandbox must be structured-cloneable; anything else goes as JSON. */
function plain(value: unknown): unknown {
  try {
    return structuredClone(value);
  } catch {
    return JSON.parse(JSON.stringify(value) ?? 'null');
  }
}
