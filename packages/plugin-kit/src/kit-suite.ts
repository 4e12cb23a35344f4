import { relative } from 'node:path';
import { AgentestError, type Suite, type TestCase } from '@agentest/kernel';
import { kitIdWidth } from './console/kit-format.js';
import { readCasesJson } from './cases-json.js';
import { forbidFocus, NOT_FOCUSED } from './focus.js';
import { agentCase } from './kit-case.js';
import { measureKitRun } from './kit-metrics.js';
import type { KitInput } from './discover.js';
import { casesOfFile, type ListedTest } from './spec-files.js';

/**
 * One suite from everything an input names: the cases of each cases.json first, then each test
 * file's tests in registration order. Test ids are `<file relative to cwd>#<name>`, the same whether
 * `-i` names the directory, a glob or the file. When any test is marked `.only`, every other case of the run
 * is skipped (and says why), or, with `forbidOnly` (CI), the run is refused naming the `.only`. Ids must be
 * unique across the suite.
 */
export async function buildKitSuite(
  found: KitInput,
  cwd: string,
  listFile: (file: string) => Promise<ListedTest[]>,
  agentId?: string,
  forbidOnly = false,
): Promise<Suite> {
  const jsonCases: TestCase[] = [];
  for (const file of found.casesFiles) {
    const shown = relative(cwd, file) || file;
    for (const { case: c, line } of await readCasesJson(file, cwd)) {
      jsonCases.push(agentCase(c.case_id, c, { file: shown, line }, { skip: c.skip, todo: c.todo }));
    }
  }
  const listed: [string, ListedTest[]][] = [];
  for (const file of found.testFiles) listed.push([file, await listFile(file)]);
  const onlyMode = listed.some(([, tests]) => tests.some((t) => t.only));
  if (onlyMode && forbidOnly)
    forbidFocus(
      listed.flatMap(([file, tests]) => tests.map((t) => ({ ...t, file }))),
      cwd,
    );
  if (onlyMode) for (const c of jsonCases) if (!c.skip && !c.todo) c.skip = NOT_FOCUSED;

  const cases = [...jsonCases, ...listed.flatMap(([file, tests]) => casesOfFile(file, cwd, tests, onlyMode))];
  assertUniqueIds(cases);
  const files = [...found.casesFiles, ...found.testFiles].map((f) => relative(cwd, f) || f);
  return {
    name: relative(cwd, found.root) || '.',
    needsAgent: true,
    cases: () => cases,
    agentHint: { path: found.root, ...(agentId ? { id: agentId } : {}) },
    meta: {
      mode: 'kit',
      files,
      idWidth: kitIdWidth(cases.map((c) => ({ id: c.id, name: c.name ?? c.id }))),
      ...(onlyMode ? { only: true } : {}),
    },
    measure: measureKitRun,
    // Test functions may report metrics of their own (`ctx.metric`), judged after the run.
    ...(listed.some(([, tests]) => tests.some((t) => t.hasFn)) ? { customMetrics: true } : {}),
  };
}

function assertUniqueIds(cases: readonly TestCase[]): void {
  const seen = new Map<string, TestCase>();
  for (const c of cases) {
    const earlier = seen.get(c.id);
    if (earlier) {
      const at = (t: TestCase) => (t.source.line ? `${t.source.file}:${t.source.line}` : t.source.file);
      throw new AgentestError(
        'DUPLICATE_CASE_ID',
        `case id "${c.id}" is used by ${at(earlier)} and ${at(c)}; ids must be unique across the run`,
        { where: at(c) },
      );
    }
    seen.set(c.id, c);
  }
}
