/**
 * Interruption: SIGINT and SIGTERM in the middle of a `--parallel 16` run against a slow fake LLM.
 * The signal is sent once the event stream holds N `result` lines, so the run is mid-way by
 * construction. What finished must be in every output exactly once, the `.jsonl` stream must stay
 * valid line by line and end with a summary marked `interrupted`, and the exit code must be 130.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startFakeLlm, type FakeLlm } from '@agentest/fake-llm';
import { finished, spawnCli, stackFrames } from './helpers/cli.js';
import { countResultLines, readEvents, resultsById, waitFor, type Event } from './helpers/events.js';
import { connectorConfig, workspace, writeCases, writeJson } from './helpers/workspace.js';

const TOTAL = 400;
const IDS = Array.from({ length: TOTAL }, (_, i) => `case-${String(i + 1).padStart(3, '0')}`);

/**
 * The server answers the first 39 cases in 150 ms and the rest in 2 s. The signal goes out after 20 results, and
 * however late a busy machine lets the test see them, the run is still far from its end (360 cases at 16 at a time
 * need 45 s), while a first SIGINT waits at most 2 s for the cases it lets finish.
 */
const PACED = { echo: true, latencyMs: 2000, rules: [{ match: '^case-0[0-3]\\d\\b', latencyMs: 150 }] };

let llm: FakeLlm;
before(async () => {
  llm = await startFakeLlm({ ...PACED, record: false });
});
after(() => llm?.close());

/** A fresh project: config, cases, and the CLI started with `-o report.json -o events.jsonl`. */
function startRun(name: string, slow = false) {
  const dir = workspace(name);
  writeJson(dir, 'agentest.config.json', connectorConfig(llm.url));
  writeCases(
    dir,
    'cases.jsonl',
    IDS.map((id) => ({ id, input: `${id}${slow ? ' slow' : ''}`, assert: { type: 'contains', value: id } })),
  );
  const child = spawnCli(
    ['test', '-i', 'cases.jsonl', '-n', 'bot', '-o', 'report.json', '-o', 'events.jsonl', '--parallel', '16'],
    { cwd: dir },
  );
  const done = finished(child);
  const jsonl = () => readdirSync(dir).find((f) => f === 'events.jsonl');
  const resultLines = () => {
    const file = jsonl();
    return file ? countResultLines(join(dir, file)) : 0;
  };
  return { dir, child, done, jsonl, resultLines };
}

/** What every interrupted run must satisfy, whatever the signal. */
function checkInterruptedOutputs(
  dir: string,
  jsonlName: string | undefined,
): { results: Map<string, Event>; summary: Event } {
  assert.ok(jsonlName, 'the default .jsonl output exists');
  const events = readEvents(join(dir, jsonlName));
  const results = resultsById(events);
  for (const id of results.keys()) assert.ok(IDS.includes(id), `unknown id ${id}`);
  assert.ok(results.size < TOTAL, `the run was interrupted mid-way (${results.size} of ${TOTAL} finished)`);
  const summary = events.at(-1)!;
  assert.equal(summary.type, 'summary', 'the stream ends with a summary');
  assert.equal(summary.interrupted, true, 'the summary is marked interrupted');
  assert.equal(events.filter((e) => e.type === 'summary').length, 1);
  assert.equal(summary.total, results.size, 'the summary counts what finished');

  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
    results: { id: string }[];
    summary: Record<string, unknown>;
  };
  assert.deepEqual(
    report.results.map((r) => r.id).sort(),
    [...results.keys()].sort(),
    'report.json holds exactly the finished cases',
  );
  return { results, summary };
}

describe('interruption', () => {
  test('SIGINT: running cases finish, nothing new starts, every output is written from what finished; exit 130', async () => {
    const run = startRun('sigint');
    await waitFor(() => run.resultLines() >= 20, '20 result lines');
    run.child.kill('SIGINT');
    const cli = await run.done;
    assert.equal(cli.code, 130, cli.stderr);
    assert.deepEqual(stackFrames(cli.stderr), []);
    assert.match(cli.stderr, /Interrupted/);
    const { results } = checkInterruptedOutputs(run.dir, run.jsonl());
    assert.ok(results.size >= 20);
    // A first SIGINT lets running cases finish: every case that started has its result, and passed.
    const events = readEvents(join(run.dir, run.jsonl()!));
    const started = new Set(events.filter((e) => e.type === 'case_start').map((e) => e.id!));
    assert.deepEqual([...started].sort(), [...results.keys()].sort(), 'every started case finished and was reported');
    for (const result of results.values()) assert.equal(result.status, 'passed', `${result.id}: ${result.error}`);
  });

  test('SIGTERM: running cases are aborted, outputs are written from what finished; exit 130', async () => {
    const run = startRun('sigterm');
    await waitFor(() => run.resultLines() >= 20, '20 result lines');
    run.child.kill('SIGTERM');
    const cli = await run.done;
    assert.equal(cli.code, 130, cli.stderr);
    assert.deepEqual(stackFrames(cli.stderr), []);
    checkInterruptedOutputs(run.dir, run.jsonl());
  });

  test('a second SIGINT aborts the running cases instead of waiting for them', async () => {
    llm.setScript({ echo: true, latencyMs: 150, rules: [{ match: 'slow$', fault: 'hang' }] });
    try {
      const run = startRun('double-sigint', true);
      // Every case hangs on the server, so the run can only end by aborting what is running.
      await waitFor(() => {
        const file = run.jsonl();
        return file !== undefined && readFileSync(join(run.dir, file), 'utf8').split('"type":"case_start"').length > 16;
      }, '16 cases started');
      let stderr = '';
      run.child.stderr!.on('data', (d: Buffer) => (stderr += d));
      run.child.kill('SIGINT');
      await waitFor(() => /Interrupted/.test(stderr), 'the first SIGINT to be acknowledged');
      run.child.kill('SIGINT');
      const cli = await run.done;
      assert.equal(cli.code, 130, cli.stderr);
      const events = readEvents(join(run.dir, run.jsonl()!));
      assert.equal(events.at(-1)!.type, 'summary');
      assert.equal(events.at(-1)!.interrupted, true);
      resultsById(events);
    } finally {
      llm.setScript(PACED);
    }
  });
});
