/**
 * With one run per case a blob's result line is the JSONL report's own line plus the run's keys, and
 * `agentest merge` writes that line as it is when the merged record is the recorded one. Proven here
 * on a shard run in process: every merged result is the shard's own (its runs rebuilt field for field),
 * every merged JSONL line is byte for byte what serialising its record writes, and only the lines
 * that could not pass through (a run not rebuildable from the line, a skipped case) are serialised.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createKernel,
  type AgentestPlugin,
  type Execution,
  type ResultEvent,
  type RunEvent,
  type RunPlan,
  type TestCase,
} from '@agentest/kernel';
import { HistoryStore, historyPlugin } from '@agentest/history';
import { verdictPlugin } from '@agentest/report';
import jsonlReporter, { eventSerialiser } from '@agentest/reporter-jsonl';
import { BLOB_FORMAT, type BlobHeader } from '../src/blob/blob-header.js';
import { blobWriter } from '../src/blob/blob-writer.js';
import { checkShardSet } from '../src/blob/check-blobs.js';
import { leanRecord, leanRun, sameLine } from '../src/blob/lean-result.js';
import { parseRecorded, readBlob, type Blob } from '../src/blob/read-blob.js';
import { replayShards, type ReplayOptions } from '../src/blob/replay-shards.js';

const passed = (extra: Partial<Execution> = {}): Partial<Execution> => ({
  status: 'passed',
  output: 'hello',
  assertions: [{ type: 'contains', pass: true, message: "output contains 'hello'" }],
  metrics: { score: 1 },
  ...extra,
});

/** Each case's one run, as its executor answers it: passes, failures, errors and runs with fields of their own. */
const RUNS: Record<string, Partial<Execution>> = {
  plain: passed(),
  failed: {
    status: 'failed',
    output: { answer: 41, nested: { list: [1, 'two', null] } },
    error: 'expected 42',
    assertions: [{ type: 'equals', pass: false, message: 'expected 42', expected: 42, actual: 41 }],
    metrics: { score: 0, latency: 12.5 },
  },
  'no output': { status: 'error', error: 'connector refused', assertions: [], metrics: {} },
  'own fields': passed({
    tool_calls: [{ id: 't1', name: 'search', arguments: { q: 'x' } }],
    details: { steps: 3 },
    logs: ['a line', 'ünïcödé \u2028 line'],
  } as Partial<Execution>),
  // The result carries usage of its own (the meter's) as well: not rebuildable from the lean line.
  metered: passed({ usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } } as Partial<Execution>),
  'text metric': passed({ metrics: { label: 'x' } as unknown as Record<string, number> }),
};

const CASES: TestCase[] = [
  ...Object.keys(RUNS).map((id, i) => ({
    id,
    kind: 'agent',
    ...(i === 1 ? { name: 'a named case', expected: 42, metadata: { owner: 'me', '2': 'numeric key' } } : {}),
    ...(i === 3 ? { tags: ['smoke', 'slow'] } : {}),
    input: { message: `case ${i}`, quote: '"' },
    messages: [],
    source: { file: 'cases.jsonl', line: i + 1 },
  })),
  { id: 'skipped', kind: 'agent', input: 'x', messages: [], skip: 'not today', source: { file: 'cases.jsonl' } },
];

const SERIALISED_THE_SLOW_WAY = ['metered', 'text metric', 'skipped'];

function shardSuite(): AgentestPlugin {
  return {
    name: 'test:shard-suite',
    apply({ hooks }) {
      hooks.load.tapPromise('test:shard-suite', async () => ({
        name: 'cases.jsonl',
        needsAgent: false,
        cases: () => CASES,
      }));
      hooks.execute.for('agent').tap(
        'test:shard-suite',
        (testCase, ctx) =>
          ({
            run: ctx.run,
            duration_ms: 1.234,
            ...structuredClone(RUNS[testCase.id]),
          }) as Execution,
      );
      // As the usage meter does, before the reporters: the case's usage on its result.
      hooks.report.tap({ name: 'test:shard-suite', stage: -100 }, (event: RunEvent) => {
        if (event.type === 'result' && event.id === 'metered') event.usage = { calls: 1, total_tokens: 7 } as never;
      });
    },
  };
}

function heard(into: ResultEvent[], copy: boolean): AgentestPlugin {
  return {
    name: 'test:heard',
    apply: ({ hooks }) =>
      hooks.report.tap('test:heard', (event: RunEvent) => {
        if (event.type === 'result') into.push(copy ? structuredClone(event) : event);
      }),
  };
}

const plan = (): RunPlan => ({
  input: { input: 'cases.jsonl', cwd: process.cwd() },
  runs: 1,
  parallel: 1,
  failFast: false,
  env: {},
  verbose: false,
});

function headerOf(ids: string[]): BlobHeader {
  return {
    type: 'blob',
    format: BLOB_FORMAT,
    run_id: 'r',
    run_id_source: '--run-id',
    shard: { index: 1, total: 1, source: '--shard' },
    suite_hash: 'sha256:s',
    config_hash: 'sha256:c',
    agentest_version: '1.0.0',
    suite_cases: ids.length,
    cases: ids,
    positions: ids.map((_, i) => i),
  };
}

const history = (dir: string) =>
  historyPlugin({ store: new HistoryStore(join(dir, 'history')), past: [], input: 'cases.jsonl' });

test('a one-run shard writes lean lines; the merge rebuilds its results exactly and writes their lines as they are', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-lean-'));
  const ids = CASES.map((c) => c.id);
  const header = headerOf(ids);

  const shardResults: ResultEvent[] = [];
  const blobFile = join(dir, 'shard.jsonl');
  await createKernel({
    plugins: [
      shardSuite(),
      history(join(dir, 'shard')),
      blobWriter({ path: blobFile, header: () => header }),
      heard(shardResults, true),
    ],
  }).run(plan());
  const blobLines = readFileSync(blobFile, 'utf8').trim().split('\n').slice(1);
  const lean = blobLines.filter((line) => line.includes('"blob_run":')).map((line) => JSON.parse(line).id);
  assert.deepEqual(lean, ['plain', 'failed', 'no output', 'own fields']);

  const blob = await readBlob(blobFile, 'shard.jsonl');
  const { results: mergedResults, stringified, output } = await mergeOf(blob, dir, 'merged');
  // The merged results are the shard's, their runs rebuilt field for field and in order.
  assert.equal(stringify(mergedResults), stringify(shardResults));
  // Each line is what serialising its record writes (asked of a copy, which nothing pre-serialised).
  const serialise = eventSerialiser();
  const lines = readFileSync(output, 'utf8').trim().split('\n');
  serialise(JSON.parse(lines[0]!) as RunEvent);
  const resultLines = lines.filter((line) => line.startsWith('{"type":"result"'));
  assert.deepEqual(
    resultLines,
    mergedResults.map((event) => serialise({ ...event })),
  );
  assert.deepEqual(
    stringified.sort(),
    [...SERIALISED_THE_SLOW_WAY].sort(),
    'only the lines that could not pass through',
  );
  // With plugins of the config's own, which may change a value in place, every line is serialised again.
  const serialised = await mergeOf(blob, dir, 'serialised', { passThrough: false });
  assert.deepEqual(serialised.stringified, ids);
  assert.equal(readFileSync(serialised.output, 'utf8'), readFileSync(output, 'utf8'));
});

/** The merge of one blob, as `agentest merge` runs it, into `<name>.jsonl`: its results, and which it serialised. */
async function mergeOf(blob: Blob, dir: string, name: string, options: ReplayOptions = {}) {
  const { plan, plugin } = replayShards(checkShardSet([blob], undefined), dir, options);
  const output = join(dir, `${name}.jsonl`);
  const results: ResultEvent[] = [];
  const stringified: string[] = [];
  JSON.stringify = ((value: unknown, ...rest: never[]) => {
    if ((value as { type?: string } | null)?.type === 'result') stringified.push((value as ResultEvent).id);
    return stringify(value, ...rest);
  }) as typeof JSON.stringify;
  try {
    const plugins = [
      plugin,
      history(join(dir, name)),
      verdictPlugin(),
      jsonlReporter({ output }),
      heard(results, false),
    ];
    await createKernel({ plugins }).run(plan);
  } finally {
    JSON.stringify = stringify;
  }
  return { results, stringified, output };
}

test('a lean line is not offered when the merged record differs from it, in a key or a value', () => {
  const recorded = { type: 'result', id: 'a', status: 'passed', metrics: { s: 1 }, history: { recent: ['passed'] } };
  const text = `${JSON.stringify(recorded).slice(0, -1)},"blob_run":["run","status","metrics"]}`;
  const parsed = { ...JSON.parse(text), runs: [] } as Record<string, unknown>;
  const same = { ...parsed, metrics: { s: 1 }, history: { recent: ['passed'] }, runs: undefined, blob_run: undefined };
  assert.equal(sameLine(same, parsed, text), stringify(recorded));
  assert.equal(sameLine({ ...same, history: { recent: ['failed'] } }, parsed, text), undefined, 'a value');
  assert.equal(
    sameLine({ ...same, history: { recent: ['passed', 'passed'] } }, parsed, text),
    undefined,
    'a nested value',
  );
  const asJson = { toJSON: () => ({ recent: ['passed'] }) };
  assert.equal(sameLine({ ...same, history: asJson }, parsed, text), undefined, 'a value not compared is not assumed');
  assert.equal(sameLine({ ...same, warnings: ['w'] }, parsed, text), undefined, 'a key more');
  const { history: _, ...fewer } = same;
  assert.equal(sameLine(fewer, parsed, text), undefined, 'a key less');
  const reordered = { type: 'result', id: 'a', metrics: { s: 1 }, status: 'passed', history: same.history };
  assert.equal(sameLine(reordered, parsed, text), undefined, 'another order');
});

test("a run is written lean only when the line rebuilds it: its fields in order, the result's carried ones the same", () => {
  const run = {
    run: 1,
    status: 'passed',
    duration_ms: 2,
    output: 'o',
    assertions: [],
    metrics: { a: 1 },
    trace: { t: 1 },
  };
  const result = { type: 'result', id: 'x', kind: 'agent', status: 'passed', output: run.output, duration_ms: 2 };
  const event = { ...result, assertions: run.assertions, metrics: { a: 1 }, runs: [run] } as unknown as ResultEvent;
  const record = leanRecord(event)!;
  assert.deepEqual(record.blob_run, ['run', 'status', 'duration_ms', 'output', 'assertions', 'metrics', 'trace']);
  const line = JSON.parse(JSON.stringify(record)) as Record<string, unknown>;
  assert.equal(JSON.stringify(leanRun(line, line.blob_run as string[])), JSON.stringify(run));
  for (const [why, changed] of [
    ['the result has the run field too', { ...event, trace: { t: 2 } }],
    ['another output', { ...event, output: 'p' }],
    ['a metric not a number', { ...event, runs: [{ ...run, metrics: { a: NaN } }], metrics: { a: NaN } }],
    ['two runs', { ...event, runs: [run, { ...run, run: 2 }] }],
  ] as const)
    assert.equal(leanRecord(changed as unknown as ResultEvent), undefined, why);
});

const stringify = JSON.stringify;

test('a lean line is read back with its run; one a hard stop cut short is not finished, so a resume runs it again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-lean-'));
  const lean = (id: string, error?: string) =>
    stringify({
      type: 'result',
      id,
      kind: 'agent',
      input: 'x',
      source: { file: 'c.jsonl' },
      status: error ? 'error' : 'passed',
      ...(error ? { error } : {}),
      duration_ms: 1,
      assertions: [],
      metrics: {},
      blob_run: ['run', 'status', ...(error ? ['error'] : []), 'duration_ms', 'assertions', 'metrics'],
    });
  const file = join(dir, 'blob.jsonl');
  writeFileSync(file, `${stringify(headerOf(['a', 'b']))}\n${lean('a')}\n${lean('b', 'run interrupted')}\n`);
  const read = await readBlob(file, 'blob.jsonl');
  assert.deepEqual([...read.results.keys()], ['a']);
  assert.equal(
    stringify(parseRecorded('blob.jsonl', read.results.get('a')!).runs),
    '[{"run":1,"status":"passed","duration_ms":1,"assertions":[],"metrics":{}}]',
  );
});
