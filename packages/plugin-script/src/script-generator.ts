import { AgentestError, type LoadContext, type Suite } from '@agentest/kernel';
import { generatedItems, generatedSuite, parseScriptSource, SCRIPT_SOURCE_FORM } from '@agentest/plugin-jsonl';
import type { ScriptPool } from './pool/types.js';
import { scriptFunctionRoot } from './resolve/app-root.js';
import { firstScript } from './resolve/script-function.js';

const DEFAULT_GENERATOR_TIMEOUT_MS = 5 * 60_000;

/**
 * `-i "scripts:<module>.<Function>"`: calls the app's `scripts/<module>.ts` function in the sandbox
 * with one argument, the target agent `{id}`, as Yao does; what it returns (an array of cases, an
 * object with `cases`, or one case) is checked exactly as a JSONL file is. A reference without a
 * module is `INPUT_INVALID`; a missing file or function, a throw or a timeout is `GENERATOR_FAILED`
 * naming `-i`.
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
  const target = appScript(input, scriptFunctionRoot(ctx.plan.input.cwd, root), failed);
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

/**
 * The file and function `scripts:<module>.<Function>` names. As in Yao (process `scripts.<ref>`), only
 * the app's own `scripts/` folder is searched, never an assistant's `src/` (those are `agents.*` processes).
 */
function appScript(
  input: string,
  root: string,
  failed: (problem: string) => AgentestError,
): { file: string; fn: string } {
  const { module, fn } = parseScriptSource(input);
  const found = firstScript([`scripts/${module.join('/')}`], root);
  if ('file' in found) return { file: found.file, fn };
  const doubled =
    module[0] === 'scripts' && module.length > 1
      ? `; leave out the second "scripts.": -i "scripts:${module.slice(1).join('.')}.${fn}"`
      : '';
  throw failed(`no ${found.tried.join(' or ')} in the app (${root}); it takes ${SCRIPT_SOURCE_FORM}${doubled}`);
}
