import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { registerSecret } from '@agentest/kernel';
import { SnapshotStore, snapshotFile, serialiseSnapshots, snapshotVerdict } from '../src/index.js';

const SHOWN = join('suites', '__snapshots__', 'chat.snap.jsonl');

function project(): { cwd: string; suite: string; file: string } {
  const cwd = mkdtempSync(join(tmpdir(), 'agentest-snap-'));
  const suite = join(cwd, 'suites', 'chat.jsonl');
  return { cwd, suite, file: join(cwd, SHOWN) };
}

const store = (cwd: string, mode: { update?: boolean; ci?: boolean } = {}) =>
  new SnapshotStore({ cwd, update: mode.update ?? false, ci: mode.ci ?? false });

test('the file sits beside the suite, named after it', () => {
  assert.equal(snapshotFile('a/b/support.jsonl', '/p'), '/p/a/b/__snapshots__/support.snap.jsonl');
});

test('a first run writes, in case and key order, only when flushed', async () => {
  const { cwd, suite, file } = project();
  const run = store(cwd);
  assert.deepEqual(await run.check(suite, 'b', '#1', { z: 1, a: [2] }), { status: 'written' });
  assert.deepEqual(await run.check(suite, 'a', '#10', 'ten'), { status: 'written' });
  assert.deepEqual(await run.check(suite, 'a', '#2', 'two'), { status: 'written' });
  assert.deepEqual(await run.check(suite, 'a', 'greeting', 'hi'), { status: 'written' });
  assert.equal(existsSync(file), false, 'nothing is written before the end of the run');
  await run.flush();
  assert.equal(
    readFileSync(file, 'utf8'),
    [
      '{"case":"a","key":"#2","value":"two"}',
      '{"case":"a","key":"#10","value":"ten"}',
      '{"case":"a","key":"greeting","value":"hi"}',
      '{"case":"b","key":"#1","value":{"a":[2],"z":1}}',
      '',
    ].join('\n'),
  );
});

test('a second run matches regardless of key order, and fails on a change without touching the file', async () => {
  const { cwd, suite, file } = project();
  mkdirSync(join(cwd, 'suites', '__snapshots__'), { recursive: true });
  const text = serialiseSnapshots([{ case: 'c1', key: '#1', value: { a: 1, b: 2 } }]);
  writeFileSync(file, text);
  const run = store(cwd);
  assert.deepEqual(await run.check(suite, 'c1', '#1', { b: 2, a: 1 }), { status: 'matched' });
  assert.deepEqual(await run.check(suite, 'c1', '#1', { a: 1, b: 3 }), {
    status: 'mismatch',
    file: SHOWN,
    stored: { a: 1, b: 2 },
  });
  await run.flush();
  assert.equal(readFileSync(file, 'utf8'), text);
});

test('with CI set a missing snapshot is a failure and nothing is written', async () => {
  const { cwd, suite, file } = project();
  const run = store(cwd, { ci: true });
  assert.deepEqual(await run.check(suite, 'c1', '#1', 'x'), { status: 'missing', file: SHOWN });
  await run.flush();
  assert.equal(existsSync(file), false);
});

test('--update replaces what differs and, after a full run, drops obsolete entries', async () => {
  const { cwd, suite, file } = project();
  mkdirSync(join(cwd, 'suites', '__snapshots__'), { recursive: true });
  writeFileSync(
    file,
    serialiseSnapshots([
      { case: 'kept', key: '#1', value: 'old' },
      { case: 'kept', key: 'gone', value: 'x' },
      { case: 'removed-case', key: '#1', value: 'y' },
      { case: 'errored', key: '#1', value: 'z' },
    ]),
  );
  const looking = store(cwd);
  assert.equal((await looking.check(suite, 'kept', '#1', 'old')).status, 'matched');
  looking.caseEnded(suite, 'kept', 'evaluated');
  looking.caseEnded(suite, 'errored', 'not-evaluated');
  const report = await looking.finish(true);
  assert.deepEqual(report.obsolete, [`${SHOWN}: kept gone`, `${SHOWN}: removed-case #1`]);
  assert.equal(report.removed, 0);
  assert.deepEqual(await store(cwd).finish(false), { written: 0, updated: 0, obsolete: [], removed: 0 });

  const updating = store(cwd, { update: true });
  assert.deepEqual(await updating.check(suite, 'kept', '#1', 'new'), { status: 'updated' });
  updating.caseEnded(suite, 'kept', 'evaluated');
  updating.caseEnded(suite, 'errored', 'not-evaluated');
  assert.equal((await updating.finish(true)).removed, 2);
  await updating.flush();
  assert.equal(
    readFileSync(file, 'utf8'),
    '{"case":"errored","key":"#1","value":"z"}\n{"case":"kept","key":"#1","value":"new"}\n',
  );
});

test('several runs of a case must agree with the first one', async () => {
  const { cwd, suite } = project();
  const run = store(cwd, { update: true });
  assert.equal((await run.check(suite, 'c', '#1', 'one')).status, 'written');
  assert.equal((await run.check(suite, 'c', '#1', 'one')).status, 'matched');
  assert.equal((await run.check(suite, 'c', '#1', 'two')).status, 'mismatch');
});

test('a broken line names the file and line', async () => {
  const { cwd, suite, file } = project();
  mkdirSync(join(cwd, 'suites', '__snapshots__'), { recursive: true });
  writeFileSync(file, '{"case":"a","key":"#1","value":1}\nnot json\n');
  await assert.rejects(store(cwd).check(suite, 'a', '#1', 1), (error: Error) =>
    error.message.startsWith(`${file}:2: not a snapshot entry`),
  );
});

test('a configured secret in the value is stored and compared as [redacted]: the committed file never holds it', async () => {
  const secret = 'sk-snapshot-store-secret-0123456789';
  registerSecret(secret);
  const { cwd, suite, file } = project();
  const first = store(cwd);
  assert.deepEqual(await first.check(suite, 'k', '#1', { reply: `the key is ${secret}` }), { status: 'written' });
  await first.flush();
  const text = readFileSync(file, 'utf8');
  assert.ok(!text.includes(secret), text);
  assert.match(text, /the key is \[redacted\]/);
  const second = store(cwd);
  assert.deepEqual(await second.check(suite, 'k', '#1', { reply: `the key is ${secret}` }), { status: 'matched' });
  const changed = await second.check(suite, 'k', '#1', { reply: `the key was ${secret}` });
  assert.equal(changed.status, 'mismatch');
  const verdict = snapshotVerdict(changed, '#1', 'k', { reply: `the key was ${secret}` });
  assert.ok(!verdict.message!.includes(secret) && !JSON.stringify(verdict.actual).includes(secret), verdict.message);
});
