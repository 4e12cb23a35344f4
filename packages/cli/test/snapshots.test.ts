import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentest, fixture } from './helpers.js';

const line = (value: object) => `${JSON.stringify(value)}\n`;
const plain = (id: string, input: string) => line({ id, input, assert: { type: 'snapshot' } });
const json = (id: string, body: object) =>
  line({ id, input: JSON.stringify(body), assert: [{ type: 'snapshot', name: 'body', ignore: ['$.id'] }] });

test('snapshots: written on the first run, matched, diffed, updated, refused on CI, obsolete ones reported', async () => {
  const dir = fixture({
    'chat.jsonl': plain('greet', 'hello') + json('order', { id: 'r-1', total: 3 }),
  });
  const file = join(dir, '__snapshots__', 'chat.snap.jsonl');
  const run = (extra: string[] = [], env: NodeJS.ProcessEnv = { CI: '' }) =>
    agentest(['test', '-i', 'chat.jsonl', '-n', 'echo', '--no-jsonl', '-o', 'report.json', ...extra], {
      cwd: dir,
      env,
    });
  const summary = () => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).summary;

  const first = await run();
  assert.equal(first.code, 0, first.stdout + first.stderr);
  const written = readFileSync(file, 'utf8');
  assert.equal(
    written,
    '{"case":"greet","key":"#1","value":"hello"}\n{"case":"order","key":"body","value":{"id":"[ignored]","total":3}}\n',
  );
  assert.deepEqual(summary().snapshots, { written: 2, updated: 0, obsolete: [], removed: 0 });

  writeFileSync(join(dir, 'chat.jsonl'), plain('greet', 'hello') + json('order', { id: 'r-2', total: 3 }));
  const again = await run();
  assert.equal(again.code, 0, again.stdout + again.stderr);
  assert.equal(readFileSync(file, 'utf8'), written, 'an ignored field that changed is still a match');

  writeFileSync(join(dir, 'chat.jsonl'), plain('greet', 'hello there') + json('order', { id: 'r-3', total: 4 }));
  const changed = await run();
  assert.equal(changed.code, 1, changed.stdout + changed.stderr);
  assert.match(
    changed.stdout,
    /output does not match snapshot #1 in __snapshots__\/chat\.snap\.jsonl \(run with --update/,
  );
  assert.match(changed.stdout, /\n- hello\n\+ hello there\n/);
  assert.match(changed.stdout, /\n- {3}"total": 3\n\+ {3}"total": 4\n/);
  assert.equal(readFileSync(file, 'utf8'), written, 'a mismatch does not touch the file');

  const updated = await run(['--update']);
  assert.equal(updated.code, 0, updated.stdout + updated.stderr);
  assert.match(readFileSync(file, 'utf8'), /"value":"hello there"/);
  assert.equal(summary().snapshots.updated, 2);

  const grown = plain('greet', 'hello there') + json('order', { id: 'r-3', total: 4 }) + plain('new', 'first time');
  writeFileSync(join(dir, 'chat.jsonl'), grown);
  const ci = await run([], { CI: 'true' });
  assert.equal(ci.code, 1, ci.stdout + ci.stderr);
  assert.match(ci.stdout, /snapshot #1 of case new is not in __snapshots__\/chat\.snap\.jsonl, and CI is set/);
  assert.doesNotMatch(readFileSync(file, 'utf8'), /"new"/, 'nothing is written on CI');

  writeFileSync(join(dir, 'chat.jsonl'), plain('greet', 'hello there'));
  const shrunk = await run();
  assert.equal(shrunk.code, 0, shrunk.stdout + shrunk.stderr);
  assert.match(
    shrunk.stderr,
    /Snapshots: 1 obsolete entry \(run with --update to remove\):\n {2}__snapshots__\/chat\.snap\.jsonl: order body/,
  );
  assert.deepEqual(summary().snapshots.obsolete, ['__snapshots__/chat.snap.jsonl: order body']);
  const filtered = await run(['--run', 'greet']);
  assert.equal(filtered.code, 0, filtered.stdout + filtered.stderr);
  assert.doesNotMatch(filtered.stderr, /obsolete/, 'a filtered run cannot tell what is obsolete');

  const cleaned = await run(['--update']);
  assert.equal(cleaned.code, 0, cleaned.stdout + cleaned.stderr);
  assert.match(cleaned.stderr, /Snapshots: removed 1 obsolete entry/);
  assert.equal(readFileSync(file, 'utf8'), '{"case":"greet","key":"#1","value":"hello there"}\n');
});

test('script tests: t.assert.MatchSnapshot follows CI and --update from the command line', async () => {
  const testFile = (name: string) =>
    `export function TestUser(t: any) {\n  t.mock.process("models.user.Find", { id: 1, name: "${name}" });\n  t.assert.MatchSnapshot(Process("models.user.Find", 1));\n}\n`;
  const dir = fixture({
    'app.yao': '{}',
    'assistants/demo/package.yao': '{}',
    'assistants/demo/src/demo_test.ts': testFile('Ada'),
  });
  const file = join(dir, 'assistants/demo/src/__snapshots__/demo_test.snap.jsonl');
  const run = (extra: string[], env: NodeJS.ProcessEnv) =>
    agentest(['test', '-i', 'scripts.demo.demo', '--no-jsonl', ...extra], { cwd: dir, env });

  const ci = await run([], { CI: 'true' });
  assert.equal(ci.code, 1, ci.stdout + ci.stderr);
  assert.match(
    ci.stdout,
    /snapshot #1 of case TestUser is not in assistants\/demo\/src\/__snapshots__\/demo_test\.snap\.jsonl, and CI is set/,
  );
  assert.throws(() => readFileSync(file), /ENOENT/, 'nothing is written on CI');

  const first = await run([], { CI: '' });
  assert.equal(first.code, 0, first.stdout + first.stderr);
  assert.equal(readFileSync(file, 'utf8'), '{"case":"TestUser","key":"#1","value":{"id":1,"name":"Ada"}}\n');

  writeFileSync(join(dir, 'assistants/demo/src/demo_test.ts'), testFile('Bob'));
  const changed = await run([], { CI: '' });
  assert.equal(changed.code, 1, changed.stdout + changed.stderr);
  assert.match(changed.stdout, /\n- {3}"name": "Ada"\n\+ {3}"name": "Bob"\n/);
  const updated = await run(['--update'], { CI: 'true' });
  assert.equal(updated.code, 0, updated.stdout + updated.stderr);
  assert.match(readFileSync(file, 'utf8'), /"name":"Bob"/);
});
