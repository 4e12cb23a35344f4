import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentestError } from '@agentest/kernel';
import { detectInput } from '../src/index.js';
import { collect, FIXTURES, load } from './helpers.js';

/** [input, mode]: what this loader makes of each kind of `-i` value (relative to the fixtures). */
const detections: [string, 'file' | 'message' | 'missing' | 'other'][] = [
  ['scripts.expense.setup', 'other'],
  // A file's name, not a script reference: read (or reported missing) as a file.
  ['scripts.jsonl', 'file'],
  ['scripts.json', 'missing'],
  ['cases.jsonl', 'file'],
  ['missing/cases.jsonl', 'file'],
  ['CASES.JSONL', 'file'],
  ['nested/kit-cases.json', 'other'],
  ['nested/inputs.json', 'file'],
  ['tests/nope.json', 'missing'],
  ['nested', 'other'],
  [FIXTURES, 'other'],
  ['nested/cases-without-extension', 'file'],
  ['nested/readme.txt', 'other'],
  ['tests/**/*.test.ts', 'other'],
  ['*.spec.ts', 'other'],
  ['tests/missing.yaml', 'missing'],
  ['./missing', 'missing'],
  ['Hello world', 'message'],
  ['你好世界', 'message'],
  ['Why?', 'message'],
  ['What is 2*3?', 'message'],
  ['and/or', 'message'],
  ['https://example.com/page.html', 'message'],
  ['agents:gen?count=3', 'message'],
  ['{"role": "user"}', 'message'],
];

for (const [input, mode] of detections) {
  test(`detects ${JSON.stringify(input)} as ${mode}`, async () => {
    assert.equal((await detectInput(input, FIXTURES)).mode, mode);
  });
}

test('an existing file whose name starts with scripts. is read as a file, not as a script reference', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-detect-'));
  try {
    writeFileSync(join(dir, 'scripts.smoke.jsonl'), '{"id":"S1","input":"hi"}\n');
    assert.equal((await detectInput('scripts.smoke.jsonl', dir)).mode, 'file');
    assert.equal((await detectInput('scripts.smoke.other', dir)).mode, 'other');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('inputs of other loaders are left alone (the load tap returns nothing)', async () => {
  for (const input of ['scripts.a.b', 'nested/kit-cases.json', 'nested', 'tests/**/*.test.ts'])
    assert.equal(await load(input), undefined, input);
});

test('a .json file of JSONL lines loads as JSONL, as Yao reads -i inputs.json', async () => {
  const suite = await load('nested/inputs.json');
  assert.deepEqual(
    (await collect(suite!)).map((c) => [c.id, c.input]),
    [
      ['J1', 'hello'],
      ['J2', 'world'],
    ],
  );
});

test('a missing .jsonl file is INPUT_NOT_FOUND naming the resolved path', async () => {
  await assert.rejects(load('missing/cases.jsonl'), (error: AgentestError) => {
    assert.equal(error.code, 'INPUT_NOT_FOUND');
    assert.match(
      error.message,
      new RegExp(
        `^input file not found: ${join(FIXTURES, 'missing/cases.jsonl').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} — check the -i path`,
      ),
    );
    return true;
  });
});

test('any missing path is INPUT_NOT_FOUND, not "no loader": a .json, a path with a folder, an explicit ./', async () => {
  for (const input of ['tests/nope.json', 'nope.json', 'tests/missing.yaml', './missing']) {
    await assert.rejects(load(input), (error: AgentestError) => {
      assert.equal(error.code, 'INPUT_NOT_FOUND', input);
      assert.match(error.message, /^input file not found: /);
      return true;
    });
  }
});

test('an empty -i is an input error', async () => {
  await assert.rejects(load('   '), /-i is empty/);
});

test('a direct message is one case T001 sent as a user message; the agent is found from the working directory', async () => {
  const suite = (await load('Extract keywords from this text', '/work/app'))!;
  assert.equal(suite.needsAgent, true);
  assert.deepEqual(suite.agentHint, { path: '/work/app' });
  assert.equal(suite.defaultTimeoutMs, 300_000);
  const cases = await collect(suite);
  assert.deepEqual(cases, [
    {
      id: 'T001',
      kind: 'agent',
      input: 'Extract keywords from this text',
      messages: [{ role: 'user', content: 'Extract keywords from this text' }],
      source: { file: '<message>' },
    },
  ]);
  assert.deepEqual(await collect(suite), cases, 'a message suite can be read twice too');
});

test('plugin options are validated', async () => {
  await assert.rejects(load('cases.jsonl', FIXTURES, { maxLineBytes: 10 }), /agentest:jsonl: option "maxLineBytes"/);
  await assert.rejects(load('cases.jsonl', FIXTURES, { nope: 1 } as never), /agentest:jsonl: option/);
});
