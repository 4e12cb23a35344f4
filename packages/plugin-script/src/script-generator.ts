import { AgentestError, type LoadContext, type Suite } from '@agentest/kernel';
import { errorMessage } from '@agentest/kernel/errors';
import { generatedItems, generatedSuite } from '@agentest/plugin-jsonl';
import type { ScriptPool } from './pool/types.js';
import { scriptFunctionRoot } from './resolve/app-root.js';
import { resolveScriptFunction } from './resolve/script-function.js';

const DEFAULT_GENERATOR_TIMEOUT_MS = 5 * 60_000;

/**
 * `-i "scripts:<module>.<Function>"`: calls the app's `scripts/<module>.ts` function in the sandbox
 * with one argument, the target agent `{id}`, as Yao does; what it returns (an array of cases, an
 * object with `cases`, or one case) is checked exactly as a JSONL file is. A reference without a
 * module, a missing function, a throw or a timeout is `GENERATOR_FAILED` naming `-i`.
 */
export async function loadScriptGenerator(
  input: string,
  ctx: LoadContext,
  pool: () => ScriptPool,
  root: string | undefined,
): Promise<{ suite: Suite; dispose: () => Promise<void> }> {
  const ref = input.slice('scripts:'.length).trim();
  const failed = (problem: string) =>
    new AgentestError('GENERATOR_FAILED', `-i ${JSON.stringify(input)}: ${problem}`, { where: '-i' });
  let target;
  try {
    target = resolveScriptFunction(`scripts.${ref}`, scriptFunctionRoot(ctx.plan.input.cwd, root));
  } catch (error) {
    throw failed(errorMessage(error));
  }
  // The time limit is the task's own: the pool starts its clock when a worker takes the task, so
  // compiling the script, starting the threads and waiting for a free one are not charged to it.
  const result = await pool().call({
    file: target.file,
    fn: target.fn,
    args: [{ id: ctx.plan.agent?.id ?? '' }],
    timeoutMs: ctx.plan.timeoutMs ?? DEFAULT_GENERATOR_TIMEOUT_MS,
  });
  if (result.status === 'missing') throw failed(`no function ${target.fn} in ${target.file}`);
  if (result.status !== 'ok')
    throw failed(`${target.fn} ${result.status === 'timeout' ? 'timed out' : 'failed'}: ${result.error}`);
  const items = generatedItems(result.value, `script ${ref}`);
  return generatedSuite(items, { name: input, cwd: ctx.plan.input.cwd, maxLineBytes: 10 * 1024 * 1024 });
}
