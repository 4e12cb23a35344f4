import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Suite, TestCase } from '@agentest/kernel';
import { jsonlSuite } from '../src/jsonl-suite.js';
import { scratch } from './helpers.js';

function suiteOf(lines: string[]) {
  const dir = scratch({ 'cases.jsonl': lines.join('\n') + '\n' });
  const path = join(dir, 'cases.jsonl');
  return { path, suite: jsonlSuite({ name: path, path, file: 'cases.jsonl', maxLineBytes: 1 << 20 }) };
}

test('callers that ask before the previous answer arrived get every case once, in file order, across chunks', async () => {
  const n = 20_000;
  const { suite } = suiteOf(
    Array.from({ length: n }, (_, i) => JSON.stringify({ id: `C${i}`, input: `case ${i}`, assert: ['contains'] })),
  );
  for (let pass = 1; pass <= 2; pass++) {
    const cases = suite.cases() as AsyncIterator<TestCase>;
    const answers: IteratorResult<TestCase>[] = [];
    // 16 requests in flight at a time, as the kernel's lanes make them.
    for (let asked = 0; asked <= n; asked += 16)
      answers.push(...(await Promise.all(Array.from({ length: 16 }, () => cases.next()))));
    const ids = answers.filter((a) => !a.done).map((a) => a.value.id);
    assert.equal(ids.length, n, `pass ${pass}`);
    assert.ok(
      ids.every((id, i) => id === `C${i}`),
      `pass ${pass}: in file order`,
    );
    assert.ok(
      answers.slice(ids.length).every((a) => a.done),
      'then done, for every caller',
    );
  }
});

test('a later pass over the unchanged file builds the same cases; a changed file is checked afresh', async () => {
  const { path, suite } = suiteOf([
    '{"id": "a", "input": "x", "assert": [{"value": 1}, "contains", {"type": "regex", "value": "x"}], "timeout": "2s", "name": "n"}',
    '{"id": "b", "input": [{"role": "user", "content": "hi"}], "expected": {"k": 1}, "before": "env_test.Before"}',
  ]);
  const read = async () => {
    const cases: TestCase[] = [];
    for await (const testCase of suite.cases()) cases.push(testCase);
    return cases;
  };
  const first = await read();
  assert.deepEqual(await read(), first);
  assert.deepEqual(first[0]!.assert, [
    { type: 'equals', value: 1 },
    { type: 'contains' },
    { type: 'regex', value: 'x' },
  ]);
  writeFileSync(path, '{"id": "a", "input": "x", "skip": "yes"}\n');
  await assert.rejects(
    read(),
    (error: Error & { code?: string }) =>
      error.code === 'INPUT_INVALID' && /cases\.jsonl:1: field "skip" must be/.test(error.message),
  );
});

test('a reader stopped early closes the file and answers done; an invalid line ends the pass with its error', async () => {
  const { suite } = suiteOf(['{"id": "a", "input": "x"}', '{"id": "b", "input": "y"}', 'not json']);
  const cases = suite.cases() as AsyncIterator<TestCase>;
  assert.equal((await cases.next()).value?.id, 'a');
  assert.deepEqual(await cases.return!(), { value: undefined, done: true });
  assert.equal((await cases.next()).done, true);
  const failing = suite.cases() as AsyncIterator<TestCase>;
  const answers = await Promise.allSettled(Array.from({ length: 5 }, () => failing.next()));
  assert.deepEqual(
    answers.slice(0, 2).map((a) => a.status === 'fulfilled' && a.value.value?.id),
    ['a', 'b'],
  );
  assert.equal(answers[2]!.status, 'rejected');
  assert.match(String((answers[2] as PromiseRejectedResult).reason.message), /cases\.jsonl:3: invalid JSON/);
  assert.ok(
    answers.slice(3).every((a) => a.status === 'fulfilled' && a.value.done),
    'later callers are told the pass is over',
  );
});

/** The cases of one whole pass, and how many times `JSON.parse` ran during it. */
async function countedPass(suite: Suite): Promise<{ cases: TestCase[]; parses: number }> {
  const parse = JSON.parse;
  let parses = 0;
  JSON.parse = (...args: Parameters<typeof JSON.parse>) => (parses++, parse(...args));
  try {
    const cases: TestCase[] = [];
    for await (const testCase of suite.cases()) cases.push(testCase);
    return { cases, parses };
  } finally {
    JSON.parse = parse;
  }
}

test('the pass after the checking pass hands out the cases it built, parsing nothing; a file over the limit is parsed again', async () => {
  const lines = Array.from({ length: 50 }, (_, i) => JSON.stringify({ id: `C${i}`, input: `case ${i}` }));
  const { path, suite } = suiteOf(lines);
  const checked = await countedPass(suite);
  assert.equal(checked.parses, 50);
  const run = await countedPass(suite);
  assert.equal(run.parses, 0, 'the run pass parses no line');
  assert.deepEqual(
    run.cases.map((c) => c.id),
    lines.map((_, i) => `C${i}`),
  );
  assert.equal(run.cases[7], checked.cases[7], 'the very cases the checking pass built');
  assert.equal((await countedPass(suite)).parses, 50, 'only the next pass: a third one reads the file again');

  const small = jsonlSuite({ name: path, path, file: 'cases.jsonl', maxLineBytes: 1 << 20, keepCasesBytes: 100 });
  await countedPass(small);
  assert.equal((await countedPass(small)).parses, 50, 'a file over the limit keeps nothing');
});

test('kept cases are not handed out for a changed file, nor after a pass that stopped early', async () => {
  const { path, suite } = suiteOf(['{"id": "a", "input": "x"}', '{"id": "b", "input": "y"}']);
  await countedPass(suite);
  writeFileSync(path, '{"id": "c", "input": "z"}\n');
  const changed = await countedPass(suite);
  assert.deepEqual(
    changed.cases.map((c) => c.id),
    ['c'],
  );
  assert.equal(changed.parses, 1);
  writeFileSync(path, '{"id": "d", "input": "z"}\n{"id": "e", "input": "z"}\n');
  const stopped = suite.cases() as AsyncIterator<TestCase>;
  assert.equal((await stopped.next()).value?.id, 'd');
  await stopped.return!();
  const after = await countedPass(suite);
  assert.deepEqual(
    after.cases.map((c) => c.id),
    ['d', 'e'],
    'the stopped pass kept nothing, not even the case it read',
  );
  assert.equal(after.parses, 2);
});
