import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AgentestError } from '@agentest/kernel';
import { assistantCandidates } from './assistant.js';

export interface ResolvedScriptTest {
  /** The input as given: `scripts.expense.setup`. */
  script: string;
  assistantId: string;
  /** The test file, absolute. */
  testFile: string;
  /** The test file relative to the root: `assistants/expense/src/setup_test.ts`. */
  scriptPath: string;
  root: string;
}

const SCRIPT_REF = /^scripts(\.[A-Za-z0-9_$-]+){2,}$/;

export function isScriptTestRef(input: string): boolean {
  return SCRIPT_REF.test(input);
}

/**
 * Whether `-i` is a script test for the script loader: `scripts.<assistant>.<module>` that is no
 * existing file (`scripts.jsonl` is a file). `scripts.expense`, without its module, is refused as Yao
 * refuses it: an invalid script path that says how a reference is written.
 */
export function isScriptTestInput(input: string, cwd: string): boolean {
  const moduleless = /^scripts\.[A-Za-z0-9_$-]+$/.test(input) && !/^scripts\.jsonl?$/i.test(input);
  if ((!moduleless && !isScriptTestRef(input)) || existsSync(resolve(cwd, input))) return false;
  if (moduleless) resolveScriptTest(input, cwd);
  return true;
}

/**
 * `scripts.<assistant>.<module>` → `<assistant>/src/<module>_test.ts` (or `.js`), under `assistants/`
 * or the root, as the seed's Script Resolution table and Yao's `ResolveScript` say. A missing file is
 * an `INPUT_NOT_FOUND` error that lists every path tried.
 */
export function resolveScriptTest(input: string, root: string): ResolvedScriptTest {
  const parts = input.split('.').slice(1);
  if (parts.length < 2) {
    throw new AgentestError(
      'INPUT_INVALID',
      `invalid script path ${JSON.stringify(input)}: use scripts.<assistant>.<module>, e.g. scripts.expense.setup`,
      {
        where: '-i',
        hint: 'Name the test file as scripts.<assistant>.<module>: scripts.expense.setup runs expense/src/setup_test.ts.',
      },
    );
  }
  const tried: string[] = [];
  const candidates = assistantCandidates(root, parts);
  for (const candidate of candidates) {
    const module = candidate.rest.join('/');
    for (const ext of ['.ts', '.js']) {
      const scriptPath = `${candidate.dir}/src/${module}_test${ext}`;
      tried.push(scriptPath);
      if (existsSync(join(root, scriptPath))) {
        return { script: input, assistantId: candidate.id, testFile: join(root, scriptPath), scriptPath, root };
      }
    }
  }
  const noAssistant = candidates.every((c) => !c.marked)
    ? `; no assistant found (no package.yao in ${candidates.map((c) => c.dir).join(' or ')})`
    : '';
  throw new AgentestError(
    'INPUT_NOT_FOUND',
    `test file not found for ${input} (tried: ${tried.join(', ')}) in ${root}${noAssistant}`,
    { where: '-i' },
  );
}
