import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import type { TestCase } from '@agentest/kernel';
import { AffectedCases, type Rerun } from '../src/watch/affected-cases.js';
import { listenForCommands, type WatchCommand } from '../src/watch/watch-keys.js';

const at = (id: string, file: string, input = id): TestCase => ({
  id,
  kind: 'agent',
  input,
  messages: [],
  source: { file, line: 1 },
});

/** Runs a selection over the cases as the kernel would, and answers the ids it takes. */
function select(affected: AffectedCases, rerun: Rerun, cases: TestCase[]): string[] {
  const takes = affected.selection(rerun);
  return cases.filter((c) => takes(c)).map((c) => c.id);
}

test('a changed test() file reruns all its cases; a .jsonl file only its changed and failed ones', () => {
  const affected = new AffectedCases('/p');
  const cases = [at('a#1', 'a.test.ts'), at('a#2', 'a.test.ts'), at('J1', 'c.jsonl'), at('J2', 'c.jsonl')];
  assert.deepEqual(select(affected, { kind: 'all' }, cases), ['a#1', 'a#2', 'J1', 'J2']);
  affected.record('J2', 'failed');
  const edited = [...cases.slice(0, 3), at('J2', 'c.jsonl')];
  assert.deepEqual(select(affected, { kind: 'changed', files: new Set(['/p/a.test.ts']) }, edited), ['a#1', 'a#2']);
  assert.deepEqual(select(affected, { kind: 'changed', files: new Set(['/p/c.jsonl']) }, edited), ['J2']);
  const moved = [at('J1', 'c.jsonl', 'new input'), ...cases.slice(0, 2)];
  assert.deepEqual(select(affected, { kind: 'changed', files: new Set(['/p/c.jsonl']) }, moved), ['J1']);
  assert.deepEqual(select(affected, { kind: 'again' }, cases), ['J1'], 'Enter: the last selection');
  assert.deepEqual(select(affected, { kind: 'failed' }, cases), ['J2']);
  assert.deepEqual(
    select(affected, { kind: 'changed', files: new Set(['/p/src/hook.ts']) }, cases),
    ['a#1', 'a#2', 'J1', 'J2'],
    'a file no case comes from: every case',
  );
});

/** A stream that says it is a terminal, as process.stdin does in one. */
function fakeTerminal() {
  const raw: boolean[] = [];
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode: (on: boolean) => (raw.push(on), stdin),
  });
  return { stdin: stdin as unknown as NodeJS.ReadStream, raw };
}

test('on a terminal the keys are a, f, Enter, q and Ctrl-C, in raw mode until the loop stops listening', async () => {
  const { stdin, raw } = fakeTerminal();
  const heard: WatchCommand[] = [];
  const stop = listenForCommands(stdin, (command) => heard.push(command));
  assert.deepEqual(raw, [true]);
  (stdin as unknown as PassThrough).write('afx\rQ\u0003');
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(heard, ['all', 'failed', 'again', 'quit', 'quit']);
  stop();
  assert.deepEqual(raw, [true, false], 'the terminal is given back');
});

test('when stdin is not a terminal no key is read, and SIGINT still quits', () => {
  const stdin = new PassThrough() as unknown as NodeJS.ReadStream;
  const heard: WatchCommand[] = [];
  const stop = listenForCommands(stdin, (command) => heard.push(command));
  (stdin as unknown as PassThrough).write('a');
  process.emit('SIGINT', 'SIGINT');
  stop();
  assert.deepEqual(heard, ['quit']);
  assert.equal(stdin.listenerCount('data'), 0);
});
