import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentestError, type Suite } from '@agentest/kernel';
import type { CaseRuleOptions } from './case-rules.js';
import { typeName } from './input-error.js';
import { jsonlSuite } from './jsonl-suite.js';

/** What a generator must answer; the fix is in the generator (its prompt or script), not in a file line. */
const GENERATOR_REPLY_HINT =
  'Make the generator return a JSON array of cases ([{"id": "G1", "input": "…"}]); `--dry-run` shows what it generates.';

/**
 * The cases a generator returned, in any of Yao's shapes: an array, an object with an array `cases`
 * (or `test_cases`), or a single case object. `from` names the generator in the error.
 */
export function generatedItems(value: unknown, from: string): unknown[] {
  if (Array.isArray(value)) return value;
  if (value && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    if (Array.isArray(object.cases)) return object.cases;
    if (Array.isArray(object.test_cases)) return object.test_cases;
    return [object];
  }
  throw new AgentestError(
    'INPUT_INVALID',
    `${from} returned ${typeName(value)} instead of test cases — it must return a JSON array of cases, e.g. [{"id": "G1", "input": "…"}]`,
    { where: '-i', hint: GENERATOR_REPLY_HINT },
  );
}

export interface GeneratedSuiteOptions extends CaseRuleOptions {
  /** The `-i` value: the suite's name, and the "file" its cases' errors and sources name. */
  name: string;
  cwd: string;
  maxLineBytes: number;
  /** What the generator was asked for, kept in the suite's meta. */
  requested?: number;
}

/**
 * A suite over generated cases, checked exactly as a JSONL file is (one validator for every source,
 * W12): the items are written one per line to a private file and read by the JSONL loader, so a bad
 * item is `INPUT_INVALID` at `<-i value>:<item number>` with the same message a file line would get.
 * Relative `file://` paths start at the working directory, as in Yao. `dispose` removes the file.
 */
export async function generatedSuite(
  items: readonly unknown[],
  options: GeneratedSuiteOptions,
): Promise<{ suite: Suite; dispose: () => Promise<void> }> {
  if (!items.length)
    throw new AgentestError('INPUT_INVALID', `${options.name} generated no test cases — check the generator's reply`, {
      where: '-i',
      hint: GENERATOR_REPLY_HINT,
    });
  const dir = await mkdtemp(join(tmpdir(), 'agentest-generated-'));
  const path = join(dir, 'cases.jsonl');
  await writeFile(path, `${items.map((item) => JSON.stringify(item) ?? 'null').join('\n')}\n`);
  const { name, cwd, requested, ...rules } = options;
  const suite = jsonlSuite({ ...rules, name, path, file: name, baseDir: cwd });
  return {
    suite: {
      ...suite,
      agentHint: { path: cwd },
      meta: { mode: 'generated', source: name, generated: items.length, ...(requested ? { requested } : {}) },
    },
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}
