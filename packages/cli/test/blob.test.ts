import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentestError, type ResultEvent, type TestCase } from '@agentest/kernel';
import { BLOB_FORMAT, checkHeader, chooseRunId, type BlobHeader } from '../src/blob/blob-header.js';
import { CaseCensus } from '../src/blob/case-census.js';
import { checkShardSet } from '../src/blob/check-blobs.js';
import { parseRecorded, readBlob, type Blob, type RecordedLine } from '../src/blob/read-blob.js';
import { blobFileName } from '../src/blob/setup-blob.js';
import { shardHeader as header2 } from './blob-headers.js';

function failsWith(run: () => unknown, code: string, message: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof AgentestError, String(error));
    assert.equal(error.code, code);
    assert.match(error.message, message);
    return true;
  });
}

test("the run id comes from --run-id, else the CI's pipeline id (GitHub's with its attempt), else none", () => {
  assert.deepEqual(chooseRunId('nightly', { GITHUB_RUN_ID: '1' }), { run_id: 'nightly', run_id_source: '--run-id' });
  assert.deepEqual(chooseRunId(undefined, { GITHUB_RUN_ID: '42', GITHUB_RUN_ATTEMPT: '3' }), {
    run_id: '42-3',
    run_id_source: 'GITHUB_RUN_ID+GITHUB_RUN_ATTEMPT',
  });
  for (const [name, source] of [
    ['CI_PIPELINE_ID', 'CI_PIPELINE_ID'],
    ['BUILDKITE_BUILD_ID', 'BUILDKITE_BUILD_ID'],
    ['CIRCLE_WORKFLOW_ID', 'CIRCLE_WORKFLOW_ID'],
  ])
    assert.deepEqual(chooseRunId(undefined, { [name]: 'x1' }), { run_id: 'x1', run_id_source: source });
  assert.equal(chooseRunId(undefined, { CI_PIPELINE_ID: ' ' }), undefined);
  assert.equal(chooseRunId(undefined, {}), undefined);
});

test('blob names carry the input, the run and the shard, in characters every file system takes', () => {
  assert.equal(
    blobFileName('tests/inputs.jsonl', '42-3', { index: 2, total: 4 }),
    'tests-inputs-jsonl.42-3.shard-2-of-4.jsonl',
  );
  assert.equal(blobFileName('../x y', undefined, { index: 1, total: 1 }), 'x-y.shard-1-of-1.jsonl');
});

const aCase = (id: string, input = id): TestCase => ({
  id,
  kind: 'agent',
  input,
  messages: [],
  source: { file: 'c.jsonl' },
});

test('the census counts each case once, keeps the shard its cases in suite order, and hashes the whole suite', () => {
  const census = new CaseCensus();
  const include = census.wrap((c) => c.id !== 'b');
  for (const id of ['a', 'b', 'c', 'a', 'c']) include(aCase(id));
  assert.deepEqual(census.cases, ['a', 'c']);
  assert.deepEqual(census.positions, [0, 2]);
  assert.equal(census.suiteCases, 3);
  const other = new CaseCensus();
  const all = other.wrap(undefined);
  for (const id of ['a', 'b', 'c']) all(aCase(id));
  assert.equal(other.suiteHash(), census.suiteHash(), 'the hash is of the suite, not of the shard');
  const changed = new CaseCensus();
  for (const testCase of [aCase('a'), aCase('b', 'edited'), aCase('c')]) changed.wrap(undefined)(testCase);
  assert.notEqual(changed.suiteHash(), census.suiteHash(), 'an edited case changes the hash');
});

test('a file that is not a blob, or a header with missing fields, is BLOB_INVALID naming the file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-blob-'));
  writeFileSync(join(dir, 'report.jsonl'), '{"type":"start"}\n');
  await assert.rejects(
    readBlob(join(dir, 'report.jsonl'), 'report.jsonl'),
    /report\.jsonl: line 1 is not a blob header/,
  );
  await assert.rejects(readBlob(join(dir, 'none.jsonl'), 'none.jsonl'), /none\.jsonl: not found/);
  failsWith(
    () => checkHeader({ type: 'blob', format: BLOB_FORMAT }, 'x.jsonl'),
    'BLOB_INVALID',
    /x\.jsonl: line 1, the blob header, is missing fields/,
  );
  failsWith(
    () => checkHeader({ type: 'blob', format: 7, agentest_version: '9.0.0' }, 'x.jsonl'),
    'BLOB_INVALID',
    /blob format 7/,
  );
});

test('a line cut short at the end of a blob is left out; one in the middle is an error naming the line', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-blob-'));
  const header = JSON.stringify(header2(1, ['a']));
  const result = JSON.stringify({ type: 'result', id: 'a', status: 'passed', runs: [] });
  writeFileSync(join(dir, 'cut.jsonl'), `${header}\n${result}\n{"type":"res`);
  assert.equal((await readBlob(join(dir, 'cut.jsonl'), 'cut.jsonl')).results.size, 1);
  writeFileSync(join(dir, 'bad.jsonl'), `${header}\n{"type":"res\n${result}\n`);
  await assert.rejects(readBlob(join(dir, 'bad.jsonl'), 'bad.jsonl'), /bad\.jsonl:2: not a JSON object/);
});

test('a result line is known by its start, parsed when merge replays it, and a broken one is an error naming its line', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-blob-'));
  const header = JSON.stringify(header2(1, ['a"1', 'b']));
  const line = (id: string, runs = '[{"run":1,"status":"passed","duration_ms":1,"assertions":[],"metrics":{}}]') =>
    `{"type":"result","id":${JSON.stringify(id)},"kind":"agent","input":"x","source":{"file":"c.jsonl"},"status":"passed","runs":${runs}}`;
  // Cut short just after a `}` of its own, the last line still is not a result.
  const cut = line('b').slice(0, line('b').indexOf('"metrics":{}') + '"metrics":{}'.length);
  writeFileSync(join(dir, 'cut.jsonl'), `${header}\n${line('a"1')}\n${cut}`);
  const read = await readBlob(join(dir, 'cut.jsonl'), 'cut.jsonl');
  assert.deepEqual([...read.results.keys()], ['a"1'], 'the escaped id is read as written');
  assert.equal(parseRecorded('cut.jsonl', read.results.get('a"1')!).status, 'passed');
  // Broken inside, with a start and an end that look whole: found when merge parses it, naming the line.
  const broken = line('b', '[{"run":1,,}]');
  writeFileSync(join(dir, 'inner.jsonl'), `${header}\n${broken}\n${line('a"1')}\n`);
  const inner = await readBlob(join(dir, 'inner.jsonl'), 'inner.jsonl');
  failsWith(
    () => parseRecorded('inner.jsonl', inner.results.get('b')!),
    'BLOB_INVALID',
    /inner\.jsonl:2: not a JSON object/,
  );
  // A case a hard stop cut short is parsed at once, and is not finished.
  const stopped = line(
    'b',
    '[{"run":1,"status":"error","error":"run interrupted","duration_ms":1,"assertions":[],"metrics":{}}]',
  );
  writeFileSync(join(dir, 'stopped.jsonl'), `${header}\n${stopped}\n`);
  assert.equal((await readBlob(join(dir, 'stopped.jsonl'), 'stopped.jsonl')).results.size, 0);
});

function blob(file: string, header: BlobHeader, finished = header.cases): Blob {
  const results = new Map(
    finished.map((id, line) => [id, { text: JSON.stringify({ type: 'result', id }), line, kind: 'agent' }]),
  );
  return { file, header, results };
}

test('merge takes N distinct, complete, disjoint shards of one run, and names what is wrong otherwise', () => {
  const one = blob('1.jsonl', header2(1, ['a', 'b']));
  const two = blob('2.jsonl', header2(2, ['c']));
  assert.deepEqual(
    checkShardSet([two, one], undefined).blobs.map((b) => b.file),
    ['1.jsonl', '2.jsonl'],
  );
  failsWith(() => checkShardSet([one], undefined), 'MERGE_INCOMPLETE', /missing shard 2\/2 of run r: got 1\/2/);
  failsWith(
    () => checkShardSet([one, one, two], undefined),
    'BLOB_MISMATCH',
    /duplicated shard 1\/2: 1\.jsonl and 1\.jsonl/,
  );
  failsWith(
    () => checkShardSet([one, blob('2.jsonl', header2(2, ['c'], { config_hash: 'sha256:other' }))], undefined),
    'BLOB_MISMATCH',
    /different config hash: shard 1\/2 \(1\.jsonl\) has c, shard 2\/2 \(2\.jsonl\) other/,
  );
  failsWith(
    () => checkShardSet([one, blob('2.jsonl', header2(2, ['c'], { agentest_version: '2.0.0' }))], undefined),
    'BLOB_MISMATCH',
    /different agentest version: .* by agentest 1\.0\.0, shard 2\/2 \(2\.jsonl\) by 2\.0\.0/,
  );
  failsWith(
    () => checkShardSet([one, blob('2.jsonl', header2(2, ['c'], { suite_hash: 'sha256:new' }))], undefined),
    'BLOB_MISMATCH',
    /different suite hash/,
  );
  failsWith(
    () => checkShardSet([one, blob('2.jsonl', header2(2, ['b', 'c']))], undefined),
    'BLOB_MISMATCH',
    /case "b" is in shard 1\/2/,
  );
  failsWith(
    () => checkShardSet([one, blob('2.jsonl', header2(2, []))], undefined),
    'MERGE_INCOMPLETE',
    /the shards hold 2 cases but the suite has 3/,
  );
  failsWith(
    () => checkShardSet([one, blob('2.jsonl', header2(2, ['c']), [])], undefined),
    'MERGE_INCOMPLETE',
    /shard 2\/2 \(2\.jsonl\) has no result for 1 of its 1 cases \("c"\).*--resume 2\.jsonl/,
  );
});

test('blobs of several runs are told apart by run id, or by suite and config hash when they carry none', () => {
  const runA = [blob('a1', header2(1, ['a', 'b'])), blob('a2', header2(2, ['c']))];
  const runB = [blob('b1', header2(1, ['a', 'b'], { run_id: 's' }))];
  failsWith(
    () => checkShardSet([...runA, ...runB], undefined),
    'BLOB_MISMATCH',
    /of 2 runs, run r: .*; run s: .*pick one with --run-id/,
  );
  assert.equal(checkShardSet([...runA, ...runB], 'r').blobs.length, 2);
  const anonymous = (b: Blob, config = 'sha256:c'): Blob => ({
    ...b,
    header: { ...b.header, run_id: undefined, config_hash: config },
  });
  const grouped = checkShardSet(
    runA.map((b) => anonymous(b)),
    undefined,
  );
  assert.equal(grouped.groupedByHash, true);
  failsWith(
    () => checkShardSet([...runA.map((b) => anonymous(b)), anonymous(runB[0]!, 'sha256:d')], undefined),
    'BLOB_MISMATCH',
    /they carry no run id, so they were grouped by suite and config hash/,
  );
});

/** Two shards of a three-case suite whose recorded case fields lie: only the runs are true. */
function twoShards(): Blob[] {
  const run = (n: number, status: 'passed' | 'failed', ms: number) => ({
    run: n,
    status,
    duration_ms: ms,
    output: status,
    assertions: [],
    metrics: { score: status === 'passed' ? 1 : 0 },
  });
  // The recorded case-level fields say "passed" and no stability: merge must not believe them.
  const result = (id: string, runs: ReturnType<typeof run>[]): RecordedLine => ({
    text: JSON.stringify({
      type: 'result',
      id,
      kind: 'agent',
      input: id,
      source: { file: 'c.jsonl' },
      status: 'passed',
      runs,
    }),
    line: 2,
    kind: 'agent',
  });
  const start = (timestamp: string) =>
    ({
      type: 'start',
      timestamp,
      agent_id: 'bot',
      connector: 'fake',
      suite: 'c.jsonl',
      kind: 'agent',
      total_cases: 0,
      runs_per_case: 2,
      parallel: 4,
      environment: {},
    }) as never;
  const summary = (completed_at: string) => ({ type: 'summary', completed_at }) as never;
  const one: Blob = {
    file: '1.jsonl',
    header: { ...header2(1, ['b']), positions: [1], thresholds: { pass_rate: 1 } },
    start: start('2026-01-01T00:00:00.000Z'),
    summary: summary('2026-01-01T00:01:00.000Z'),
    results: new Map([['b', result('b', [run(1, 'passed', 10), run(2, 'failed', 30)])]]),
  };
  const two: Blob = {
    file: '2.jsonl',
    header: { ...header2(2, ['a', 'c']), positions: [0, 2] },
    start: start('2026-01-01T00:00:05.000Z'),
    summary: summary('2026-01-01T00:02:00.000Z'),
    results: new Map([
      ['a', result('a', [run(1, 'passed', 5), run(2, 'passed', 5)])],
      ['c', result('c', [run(1, 'failed', 1), run(2, 'failed', 1)])],
    ]),
  };
  return [one, two];
}

test('merge recomputes every case and the summary from the recorded runs, in suite order, on the shards clock', async () => {
  const [one, two] = twoShards();
  const { replayShards } = await import('../src/blob/replay-shards.js');
  const { createKernel } = await import('@agentest/kernel');
  const { verdictPlugin } = await import('@agentest/report');
  const { plan, plugin } = replayShards(checkShardSet([one, two], undefined), process.cwd());
  const heard: Record<string, unknown>[] = [];
  const listener = {
    name: 'listener',
    apply: (k: { hooks: { report: { tap: (n: string, f: (e: never) => void) => void } } }) =>
      k.hooks.report.tap('listener', (e) => void heard.push(e)),
  };
  // The kernel `agentest merge` builds: the replayed shards and the ship verdict.
  const outcome = await createKernel({ plugins: [plugin, verdictPlugin(), listener as never] }).run(plan);
  const results = heard.filter((e) => e.type === 'result') as unknown as ResultEvent[];
  assert.deepEqual(
    results.map((r) => [r.id, r.status, r.stability?.pass_rate, r.metrics.score]),
    [
      ['a', 'passed', 100, 1],
      ['b', 'failed', 50, 0.5],
      ['c', 'failed', 0, 0],
    ],
  );
  assert.equal(heard[0]!.timestamp, '2026-01-01T00:00:00.000Z', 'the run started with the first shard');
  const { summary: merged } = outcome;
  assert.deepEqual(
    [merged.total, merged.passed, merged.failed, merged.total_runs, merged.overall_pass_rate],
    [3, 1, 2, 6, 50],
  );
  assert.deepEqual([merged.stable_cases, merged.unstable_cases], [1, 2], 'stable means every run passed');
  assert.equal(merged.duration_ms, 120_000, 'from the first shard start to the last shard end');
  assert.equal(merged.verdict?.can_ship, false, 'judged by the thresholds the shards ran with');
});

test('a report or any file whose whole first line is no blob header is named as not a blob, not as cut short', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-blob-'));
  const notBlob = /not a shard blob: its first line is not a blob header .*a \.json or \.jsonl report cannot be merged/;
  // A .json report is pretty-printed: its first line is `{`.
  writeFileSync(join(dir, 'report.json'), JSON.stringify({ summary: { total: 1 }, results: [] }, null, 2) + '\n');
  await assert.rejects(readBlob(join(dir, 'report.json'), 'report.json'), (error: Error) => {
    assert.match(error.message, /^report\.json:1: /);
    assert.match(error.message, notBlob);
    return true;
  });
  // One whole line that is JSON but no object.
  writeFileSync(join(dir, 'list.json'), '[1,2]\n');
  await assert.rejects(readBlob(join(dir, 'list.json'), 'list.json'), notBlob);
  // Without its newline the same first line is what a shard stopped mid-write leaves.
  writeFileSync(join(dir, 'stopped.jsonl'), '{"type":"blob');
  await assert.rejects(readBlob(join(dir, 'stopped.jsonl'), 'stopped.jsonl'), /first line is cut short/);
});
