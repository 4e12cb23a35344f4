/**
 * Splitting a suite across machines: three shard processes of one suite, each chosen a different way
 * (`--shard`, GitLab's variables, a Kubernetes Indexed Job's), run disjoint sets of cases, each case
 * with all its runs, that together are exactly the cases of one unsharded run.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from './helpers/cli.js';
import { readEvents, resultsById, type Event } from './helpers/events.js';
import { NO_CI } from './helpers/sharded-suite.js';
import { workspace, writeCases, writeJson } from './helpers/workspace.js';

const IDS = Array.from({ length: 24 }, (_, i) => `case-${String(i).padStart(2, '0')}`);
let dir: string;

before(() => {
  dir = workspace('shards');
  writeCases(
    dir,
    'cases.jsonl',
    IDS.map((id) => ({ id, input: `${id} says hi`, assert: { type: 'contains', value: id } })),
  );
});

async function run(name: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const out = `${name}.jsonl`;
  const result = await runCli(['test', '-i', 'cases.jsonl', '-n', 'echo', '--runs', '2', '-o', out, ...args], {
    cwd: dir,
    env: { ...NO_CI, ...env },
  });
  assert.equal(result.code, 0, result.stderr);
  return { ...result, events: readEvents(join(dir, out)) };
}

const startOf = (events: Event[]) => events.find((e) => e.type === 'start')!;

test('three shards chosen by the flag, GitLab and Kubernetes run disjoint parts that make up the whole suite', async () => {
  const whole = await run('whole', []);
  assert.equal(startOf(whole.events).shard, undefined);
  assert.doesNotMatch(whole.stdout, /Shard:/);
  const shards = [
    await run('shard-1', ['--shard', '1/3']),
    await run('shard-2', [], { CI_NODE_INDEX: '2', CI_NODE_TOTAL: '3' }),
    await run('shard-3', [], { JOB_COMPLETION_INDEX: '2', AGENTEST_SHARD_TOTAL: '3' }),
  ];
  const sources = [
    '--shard',
    'GitLab CI_NODE_INDEX/CI_NODE_TOTAL',
    'Kubernetes JOB_COMPLETION_INDEX, AGENTEST_SHARD_TOTAL',
  ];
  const seen: string[] = [];
  shards.forEach(({ events, stdout }, i) => {
    const start = startOf(events);
    assert.deepEqual(start.shard, { index: i + 1, total: 3, source: sources[i] });
    assert.ok(stdout.includes(`Shard: ${i + 1}/3 (chosen by ${sources[i]})`), stdout);
    const byId = resultsById(events);
    assert.equal(start.total_cases, byId.size);
    assert.ok(byId.size > 0 && byId.size < IDS.length, `shard ${i + 1} holds part of the suite: ${byId.size}`);
    const runs = events.filter((e) => e.type === 'run_result');
    for (const id of byId.keys()) assert.equal(runs.filter((e) => e.id === id).length, 2, `${id} keeps all its runs`);
    seen.push(...byId.keys());
  });
  assert.equal(seen.length, IDS.length, 'no case runs in two shards');
  assert.deepEqual(
    seen.sort(),
    [...resultsById(whole.events, IDS).keys()].sort(),
    'the shards make up the whole suite',
  );
});

test('balanced shards packed by the durations of an earlier report are disjoint and make up the suite', async () => {
  const earlier = await run('earlier', []);
  const halves = [
    await run('balanced-1', ['--shard', '1/2', '--shard-mode', 'balanced', '--shard-durations', 'earlier.jsonl']),
    await run('balanced-2', ['--shard', '2/2', '--shard-mode', 'balanced', '--shard-durations', 'earlier.jsonl']),
  ];
  const ids = halves.flatMap(({ events }) => [...resultsById(events).keys()]);
  assert.deepEqual(ids.sort(), [...IDS].sort());
  // Packed longest first into the lighter half, the halves' recorded times differ by at most one case's.
  const time = new Map<string, number>();
  for (const e of earlier.events.filter((e) => e.type === 'run_result'))
    time.set(e.id as string, (time.get(e.id as string) ?? 0) + (e.execution as { duration_ms: number }).duration_ms);
  const load = (events: Event[]) => [...resultsById(events).keys()].reduce((sum, id) => sum + time.get(id)!, 0);
  const [a, b] = halves.map(({ events }) => load(events));
  assert.ok(Math.abs(a! - b!) <= Math.max(...time.values()), `packing evens the halves: ${a} against ${b}`);
  for (const { stdout } of halves)
    assert.match(stdout, /Shard: \d\/2 \(chosen by --shard\), balanced by the durations in earlier\.jsonl/);
});

test('balanced shards without a report pack by the run history: the latest time of each case, new cases at the median', async () => {
  const project = workspace('shards-history');
  const cases = [...IDS, 'new-1', 'new-2'];
  writeCases(
    project,
    'cases.jsonl',
    cases.map((id) => ({ id, input: id, assert: { type: 'contains', value: id } })),
  );
  // The history: case-00 took 5 s in the latest run (10 ms before), the others 10 ms; "gone" has left the
  // suite since and takes no room; new-1 and new-2 never ran.
  mkdirSync(join(project, '.agentest', 'history'), { recursive: true });
  const recorded = (id: string, at: string, times: [string, number][]) =>
    writeJson(join(project, '.agentest', 'history'), `${id}.json`, {
      format: 'agentest-history',
      version: 1,
      id,
      input: 'cases.jsonl',
      suite: 'cases.jsonl',
      kind: 'agent',
      agent: 'echo',
      connector: '',
      started_at: at,
      completed_at: at,
      duration_ms: 1,
      runs_per_case: 1,
      complete: true,
      totals: { total: times.length, passed: times.length, failed: 0, errors: 0, timeouts: 0, skipped: 0 },
      cases: times.map(([id, ms]) => ({
        id,
        status: 'passed',
        duration_ms: ms,
        runs: [{ status: 'passed', duration_ms: ms }],
      })),
    });
  recorded('20261101T100000000Z-aaaaaa', '2026-11-01T10:00:00.000Z', [
    ['case-00', 10],
    ['gone', 60_000],
  ]);
  recorded('20261102T100000000Z-bbbbbb', '2026-11-02T10:00:00.000Z', [
    ['case-00', 5000],
    ...IDS.slice(1).map((id): [string, number] => [id, 10]),
  ]);
  const shard = async (index: number) => {
    const out = `shard-${index}.jsonl`;
    // --no-history: the two shards read the same history, as shards restored from one CI cache do.
    const args = ['test', '-i', 'cases.jsonl', '-n', 'echo', '-o', out, '--no-history', '--shard', `${index}/2`];
    const balanced = ['--shard-mode', 'balanced', '--run-id', 'balanced'];
    const result = await runCli([...args, ...balanced], { cwd: project, env: NO_CI });
    assert.equal(result.code, 0, result.stderr);
    return { stdout: result.stdout, ids: [...resultsById(readEvents(join(project, out))).keys()] };
  };
  const [first, second] = [await shard(1), await shard(2)];
  assert.deepEqual(first.ids, ['case-00'], 'the 5 s case fills one shard on its own, by its latest time');
  assert.deepEqual(second.ids.sort(), cases.slice(1).sort(), 'the rest, the two new ones included, in the other');
  for (const { stdout } of [first, second])
    assert.match(
      stdout,
      /balanced by the durations in the run history \(\.agentest\/history: 2 runs of cases\.jsonl, the latest at 2026-11-02T10:00:00\.000Z\); 2 of 26 cases have no recorded time, each counts as the median 10ms/,
    );
  // Their blobs are the two halves of one run: merge takes them as a whole suite.
  const merged = await runCli(['merge', '.agentest/blobs', '-o', 'merged.jsonl'], { cwd: project, env: NO_CI });
  assert.equal(merged.code, 0, merged.stderr);
  assert.deepEqual([...resultsById(readEvents(join(project, 'merged.jsonl'))).keys()].sort(), [...cases].sort());
});

test('a shard the hash leaves empty is a passing run of no case, not an error', async () => {
  // One case over two shards: one of them gets it, the other nothing.
  const halves = [
    await run('half-1', ['--run', '^case-00$', '--shard', '1/2']),
    await run('half-2', ['--run', '^case-00$', '--shard', '2/2']),
  ];
  assert.deepEqual(halves.map(({ events }) => resultsById(events).size).sort(), [0, 1]);
});

test('a bad --shard or incomplete CI variables exit 2 naming the flag or the variable', async () => {
  for (const [args, env, message] of [
    [['--shard', '0/4'], {}, /--shard 0\/4: shards count from 1/],
    [['--shard', '5/4'], {}, /--shard 5\/4: the index is above the total/],
    [['--shard', 'x'], {}, /--shard must be <index>\/<total>, got "x"/],
    [[], { CI_NODE_INDEX: '2' }, /CI_NODE_INDEX=2 is set but CI_NODE_TOTAL is not/],
    [[], { JOB_COMPLETION_INDEX: '1' }, /pass --shard-total <completions> or set AGENTEST_SHARD_TOTAL/],
    [['--shard-mode', 'balanced'], {}, /^error\[FLAG_INVALID\]: --shard-mode balanced .* add --shard <index>\/<total>/],
  ] as const) {
    const result = await runCli(['test', '-i', 'cases.jsonl', '-n', 'echo', ...args], {
      cwd: dir,
      env: { ...NO_CI, ...env },
    });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, message);
    assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
  }
});
