import type { Kernel, RunPlan, TestCase } from '@agentest/kernel';
import { safeStringify } from '@agentest/common';
import type { CliIo } from './run-test.js';

/** Ids wider than this are not padded: one long id should not push every other line's columns right. */
const ID_COLUMN_MAX = 40;

/**
 * `--list`: the cases the run would run, after `--run`, `--tag`, `--shard` and `--last-failed`, one line
 * each (`id  file:line  [tags]`), or one JSON object per line with `--json`; the count goes to stderr. It
 * loads and checks the suite as `--dry-run` does (kernel.list), but prints where each case is and how
 * it is tagged, to see what a selection takes, rather than the cases themselves as a suite file.
 */
export async function listCases(kernel: Kernel, plan: RunPlan, json: boolean, io: CliIo): Promise<number> {
  const cases = await kernel.list(plan);
  const width = Math.min(ID_COLUMN_MAX, Math.max(0, ...cases.map((c) => c.id.length)));
  const line = json ? (c: TestCase) => safeStringify(listedCase(c)) : (c: TestCase) => textLine(c, width);
  io.stdout.write(cases.map((c) => `${line(c)}\n`).join(''));
  io.stderr.write(`${cases.length} case${cases.length === 1 ? '' : 's'} selected\n`);
  return 0;
}

/** What `--list --json` writes for a case. */
export function listedCase(testCase: TestCase): Record<string, unknown> {
  return {
    id: testCase.id,
    ...(testCase.name !== undefined ? { name: testCase.name } : {}),
    kind: testCase.kind,
    source: testCase.source,
    tags: testCase.tags ?? [],
    ...(testCase.skip ? { skip: testCase.skip } : {}),
    ...(testCase.todo ? { todo: true } : {}),
  };
}

function textLine(testCase: TestCase, width: number): string {
  const where = testCase.source.line ? `${testCase.source.file}:${testCase.source.line}` : testCase.source.file;
  const name = testCase.name !== undefined ? ` ${JSON.stringify(testCase.name)}` : '';
  const tags = testCase.tags?.length ? `  [${testCase.tags.join(', ')}]` : '';
  const mark = testCase.todo ? '  (todo)' : testCase.skip ? '  (skip)' : '';
  return `${testCase.id.padEnd(width)}${name}  ${where}${tags}${mark}`;
}
