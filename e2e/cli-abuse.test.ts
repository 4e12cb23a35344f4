/**
 * Abuse of the process around a run: stdout closed early (`agentest test … | head -3`), a case
 * nested 100,000 levels deep, and SIGHUP (what a CI runner sends when a job is cancelled). The run
 * must never crash: results are kept, every file report is whole, and the exit code says what
 * happened. No test sleeps: the pipe is closed after three lines arrived, the signal is sent once
 * the event stream holds N results.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startFakeLlm, type FakeLlm } from '@agentest/fake-llm';
import { finished, spawnCli, stackFrames } from './helpers/cli.js';
import { HANG_MS } from './helpers/deadlines.js';
import { countResultLines, readEvents, resultsById, waitFor } from './helpers/events.js';
import { connectorConfig, workspace, writeCases, writeJson } from './helpers/workspace.js';

let llm: FakeLlm;
before(async () => {
  llm = await startFakeLlm({ echo: true, latencyMs: 100 });
});
after(() => llm?.close());

const ids = (n: number) => Array.from({ length: n }, (_, i) => `case-${String(i + 1).padStart(4, '0')}`);

/** Spawns the CLI and closes its stdout (and stderr, if asked) once `lines` lines have arrived. */
function runAndCloseEarly(args: string[], dir: string, options: { lines: number; closeStderr: boolean }) {
  const child = spawnCli(args, { cwd: dir });
  let seen = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    seen += chunk.toString();
    if (seen.split('\n').length > options.lines) {
      child.stdout!.destroy();
      if (options.closeStderr) child.stderr!.destroy();
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), HANG_MS);
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}

describe('stdout closed early (| head -3)', { concurrency: 2 }, () => {
  const TOTAL = 500;
  // -v prints every output (~400 bytes here): far more than a pipe buffer (64 KB) holds, so writes go
  // on long after the reader left.
  for (const closeStderr of [false, true]) {
    test(`the run goes on quietly: every case runs, every file report is whole, exit code from the results${closeStderr ? ' (stderr closed too)' : ''}`, async () => {
      const dir = workspace(closeStderr ? 'epipe-both' : 'epipe');
      const cases = ids(TOTAL).map((id, i) => ({
        id,
        input: `${id} ${'padding '.repeat(40)}`,
        assert: { type: 'contains', value: i === 7 ? 'never' : id },
      }));
      writeCases(dir, 'cases.jsonl', cases);
      const run = await runAndCloseEarly(
        ['test', '-i', 'cases.jsonl', '-n', 'echo', '-v', '--parallel', '4', '-o', 'report.json', '-o', 'events.jsonl'],
        dir,
        { lines: 3, closeStderr },
      );
      assert.equal(run.signal, null, `killed: it did not exit within ${HANG_MS} ms`);
      assert.equal(run.code, 1, `one case fails on purpose, so exit 1 (not a crash)\n${run.stderr.slice(0, 2000)}`);
      if (!closeStderr) {
        assert.doesNotMatch(run.stderr, /EPIPE|Unhandled/);
        assert.deepEqual(stackFrames(run.stderr), []);
      }
      const events = readEvents(join(dir, 'events.jsonl'));
      const results = resultsById(events, ids(TOTAL));
      assert.equal(results.get('case-0008')!.status, 'failed');
      assert.equal(events.at(-1)!.type, 'summary');
      const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
        summary: { total: number; failed: number };
      };
      assert.equal(report.summary.total, TOTAL);
      assert.equal(report.summary.failed, 1);
    });
  }
});

describe('a case nested 100,000 levels deep', () => {
  test('is INPUT_INVALID at file:line naming the field, exit 2, before any agent call and with no stack overflow (expected: see plugin-jsonl)', async () => {
    const dir = workspace('deep');
    writeJson(dir, 'agentest.config.json', connectorConfig(llm.url));
    const deep = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
    writeCases(dir, 'cases.jsonl', [
      { id: 'fine', input: 'hello', assert: { type: 'contains', value: 'hello' } },
      `{"id": "deep-metadata", "input": "hi", "metadata": ${deep(100_000)}}`,
    ]);
    const before = llm.requests.length;
    const run = await finished(
      spawnCli(['test', '-i', 'cases.jsonl', '-n', 'bot', '-o', 'events.jsonl'], { cwd: dir }),
    );
    assert.equal(run.code, 2, run.stderr);
    assert.match(
      run.stderr,
      /^error\[INPUT_INVALID\]: cases\.jsonl:2: field "metadata" nests more than 1000 levels deep/,
    );
    assert.doesNotMatch(run.stderr, /Maximum call stack/);
    assert.deepEqual(stackFrames(run.stderr), []);
    assert.equal(llm.requests.length, before, 'no agent call');
  });
});

describe('SIGHUP', () => {
  test('is handled like SIGTERM: running cases are aborted, every output is written from what finished; exit 130', async () => {
    const dir = workspace('sighup');
    const all = ids(300);
    writeJson(dir, 'agentest.config.json', connectorConfig(llm.url));
    writeCases(
      dir,
      'cases.jsonl',
      all.map((id) => ({ id, input: id, assert: { type: 'contains', value: id } })),
    );
    const child = spawnCli(
      ['test', '-i', 'cases.jsonl', '-n', 'bot', '--parallel', '8', '-o', 'report.json', '-o', 'events.jsonl'],
      { cwd: dir },
    );
    const done = finished(child);
    await waitFor(() => countResultLines(join(dir, 'events.jsonl')) >= 10, '10 result lines');
    child.kill('SIGHUP');
    const run = await done;
    assert.equal(run.signal, null, 'the process was not killed by the signal');
    assert.equal(run.code, 130, run.stderr);
    assert.deepEqual(stackFrames(run.stderr), []);
    const events = readEvents(join(dir, 'events.jsonl'));
    const results = resultsById(events);
    assert.ok(
      results.size >= 10 && results.size < all.length,
      `interrupted mid-way (${results.size} of ${all.length})`,
    );
    const summary = events.at(-1)!;
    assert.equal(summary.type, 'summary');
    assert.equal(summary.interrupted, true);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { results: { id: string }[] };
    assert.deepEqual(report.results.map((r) => r.id).sort(), [...results.keys()].sort());
  });
});
