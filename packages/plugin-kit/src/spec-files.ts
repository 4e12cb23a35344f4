import { relative } from 'node:path';
import { AgentestError, type TestCase } from '@agentest/kernel';
import type { ScriptPool } from '@agentest/plugin-script';
import { NOT_FOCUSED } from './focus.js';
import { registeredCase, type SpecData } from './kit-case.js';
import type { SandboxEntries } from './sandbox-entry.js';
import type { RegisteredTest } from './types.js';

const LIST_TIMEOUT_MS = 30_000;

/** A registration as the sandbox reports it: everything but the function itself. */
export type ListedTest = Omit<RegisteredTest, 'fn'> & { hasFn: boolean };

/**
 * Evaluates a test file in the sandbox and returns its registrations, in order. A file that cannot be
 * compiled or throws while registering is an input error naming the file.
 */
export async function listTests(
  pool: ScriptPool,
  entries: SandboxEntries,
  aliases: Record<string, string>,
  file: string,
  cwd: string,
): Promise<ListedTest[]> {
  const shown = relative(cwd, file) || file;
  const result = await pool.call({
    file: entries.entryFor(file),
    fn: '__agentest_kit_list',
    args: [],
    timeoutMs: LIST_TIMEOUT_MS,
    alias: aliases,
  });
  if (result.status === 'ok') return result.value as ListedTest[];
  const why = result.status === 'missing' ? 'the agentest runtime did not load' : result.error;
  throw new AgentestError('SCRIPT_INVALID', `${shown}: cannot load the test file: ${why}`, { where: shown });
}

/**
 * The kernel cases of one file's registrations. Ids are `<file relative to root>#<test name>`, so they
 * survive reordering and filtering; two tests of one file with the same name are an error.
 */
export function casesOfFile(
  file: string,
  root: string,
  tests: readonly (ListedTest | RegisteredTest)[],
  onlyMode: boolean,
): TestCase[] {
  const shown = relative(root, file) || file;
  const seen = new Set<string>();
  return tests.map((test) => {
    if (seen.has(test.name)) {
      throw new AgentestError(
        'DUPLICATE_CASE_ID',
        `${shown}: two tests are named ${JSON.stringify(test.name)}; give each test of a file a unique name`,
        { where: shown },
      );
    }
    seen.add(test.name);
    const skip = onlyMode && !test.only && test.status === 'active' ? NOT_FOCUSED : undefined;
    return registeredCase(`${shown}#${test.name}`, test, specData(file, test), { file: shown }, skip);
  });
}

/**
 * Where a function test is found again at run time: by file and name in the sandbox (the listing
 * carries no function), or the function itself for tests registered on the main thread.
 */
function specData(file: string, test: ListedTest | RegisteredTest): SpecData | undefined {
  if ('hasFn' in test) return test.hasFn ? { file, name: test.name } : undefined;
  return test.fn ? { file, name: test.name, fn: test.fn } : undefined;
}
