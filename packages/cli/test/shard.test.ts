import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AgentestError } from '@agentest/kernel';
import { parseFlags } from '../src/flags.js';
import { inShard, shardOfCase } from '../src/shard/assign-shard.js';
import { packByDuration, packSuite } from '../src/shard/balanced-shards.js';
import { chooseShard } from '../src/shard/choose-shard.js';

function failsWith(run: () => unknown, code: string, where: string, message: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof AgentestError, String(error));
    assert.equal(error.code, code);
    assert.equal(error.where, where);
    assert.match(error.message, message);
    return true;
  });
}

const shardFlag = (value: string) => parseFlags({ input: 'cases.jsonl', shard: value }).shard;

test('--shard i/N is 1-based; a malformed or out-of-range value names the flag and the right form', () => {
  assert.deepEqual(shardFlag('2/4'), { index: 2, total: 4 });
  assert.deepEqual(shardFlag(' 1 / 1 '), { index: 1, total: 1 });
  failsWith(() => shardFlag('0/4'), 'FLAG_INVALID', '--shard', /^--shard 0\/4: shards count from 1.*--shard 1\/4$/);
  failsWith(
    () => shardFlag('5/4'),
    'FLAG_INVALID',
    '--shard',
    /^--shard 5\/4: the index is above the total.*1\/4 to 4\/4/,
  );
  failsWith(
    () => shardFlag('x'),
    'FLAG_INVALID',
    '--shard',
    /^--shard must be <index>\/<total>, got "x" \(e\.g\. --shard 2\/4/,
  );
  failsWith(() => shardFlag('1/0'), 'FLAG_INVALID', '--shard', /the total must be at least 1/);
  failsWith(() => shardFlag('-1/4'), 'FLAG_INVALID', '--shard', /must be <index>\/<total>/);
  failsWith(() => parseFlags({ input: 'cases.jsonl', shardTotal: '0' }), 'FLAG_INVALID', '--shard-total', /at least 1/);
});

test('the flag wins over the CI variables, and names itself as the source', () => {
  assert.deepEqual(chooseShard({ shard: { index: 3, total: 5 } }, { CI_NODE_INDEX: '1', CI_NODE_TOTAL: '2' }), {
    index: 3,
    total: 5,
    source: '--shard',
  });
  assert.equal(chooseShard({}, {}), undefined);
});

test("each CI's parallel-job variables choose the shard, converted to 1-based", () => {
  const cases: [NodeJS.ProcessEnv, number, number, string][] = [
    [{ CI_NODE_INDEX: '1', CI_NODE_TOTAL: '4' }, 1, 4, 'GitLab CI_NODE_INDEX/CI_NODE_TOTAL'],
    [{ CI_NODE_INDEX: '4', CI_NODE_TOTAL: '4' }, 4, 4, 'GitLab CI_NODE_INDEX/CI_NODE_TOTAL'],
    [
      { BUILDKITE_PARALLEL_JOB: '0', BUILDKITE_PARALLEL_JOB_COUNT: '3' },
      1,
      3,
      'Buildkite BUILDKITE_PARALLEL_JOB/BUILDKITE_PARALLEL_JOB_COUNT',
    ],
    [
      { BUILDKITE_PARALLEL_JOB: '2', BUILDKITE_PARALLEL_JOB_COUNT: '3' },
      3,
      3,
      'Buildkite BUILDKITE_PARALLEL_JOB/BUILDKITE_PARALLEL_JOB_COUNT',
    ],
    [{ CIRCLE_NODE_INDEX: '0', CIRCLE_NODE_TOTAL: '2' }, 1, 2, 'CircleCI CIRCLE_NODE_INDEX/CIRCLE_NODE_TOTAL'],
    [{ CIRCLE_NODE_INDEX: '1', CIRCLE_NODE_TOTAL: '2' }, 2, 2, 'CircleCI CIRCLE_NODE_INDEX/CIRCLE_NODE_TOTAL'],
    [
      { JOB_COMPLETION_INDEX: '0', AGENTEST_SHARD_TOTAL: '5' },
      1,
      5,
      'Kubernetes JOB_COMPLETION_INDEX, AGENTEST_SHARD_TOTAL',
    ],
    [
      { JOB_COMPLETION_INDEX: '4', AGENTEST_SHARD_TOTAL: '5' },
      5,
      5,
      'Kubernetes JOB_COMPLETION_INDEX, AGENTEST_SHARD_TOTAL',
    ],
  ];
  for (const [env, index, total, source] of cases)
    assert.deepEqual(chooseShard({}, env), { index, total, source }, JSON.stringify(env));
  assert.deepEqual(chooseShard({ shardTotal: 3 }, { JOB_COMPLETION_INDEX: '2', AGENTEST_SHARD_TOTAL: '9' }), {
    index: 3,
    total: 3,
    source: 'Kubernetes JOB_COMPLETION_INDEX, --shard-total',
  });
});

test('a CI running a single job splits nothing, and a blank variable counts as unset', () => {
  // CircleCI sets its variables on every job, 0 of 1 without parallelism; GitLab sets CI_NODE_TOTAL=1.
  assert.equal(chooseShard({}, { CIRCLE_NODE_INDEX: '0', CIRCLE_NODE_TOTAL: '1' }), undefined);
  assert.equal(chooseShard({}, { CI_NODE_INDEX: '', CI_NODE_TOTAL: '1' }), undefined);
  assert.equal(chooseShard({}, { JOB_COMPLETION_INDEX: '0', AGENTEST_SHARD_TOTAL: '1' }), undefined);
});

test('incomplete or out-of-range CI variables are an error naming the variable and the way out', () => {
  failsWith(
    () => chooseShard({}, { CI_NODE_INDEX: '2' }),
    'SHARD_ENV_INVALID',
    'CI_NODE_TOTAL',
    /CI_NODE_INDEX=2 is set but CI_NODE_TOTAL is not.*--shard <index>\/<total>/,
  );
  failsWith(
    () => chooseShard({}, { CI_NODE_INDEX: '0', CI_NODE_TOTAL: '4' }),
    'SHARD_ENV_INVALID',
    'CI_NODE_INDEX',
    /CI_NODE_INDEX must be a whole number of at least 1, got "0"/,
  );
  failsWith(
    () => chooseShard({}, { BUILDKITE_PARALLEL_JOB: '3', BUILDKITE_PARALLEL_JOB_COUNT: '3' }),
    'SHARD_ENV_INVALID',
    'BUILDKITE_PARALLEL_JOB',
    /BUILDKITE_PARALLEL_JOB=3 is beyond BUILDKITE_PARALLEL_JOB_COUNT=3 \(Buildkite counts from 0\)/,
  );
  failsWith(
    () => chooseShard({}, { CIRCLE_NODE_INDEX: 'one', CIRCLE_NODE_TOTAL: '2' }),
    'SHARD_ENV_INVALID',
    'CIRCLE_NODE_INDEX',
    /got "one"/,
  );
  failsWith(
    () => chooseShard({}, { JOB_COMPLETION_INDEX: '1' }),
    'SHARD_ENV_INVALID',
    'JOB_COMPLETION_INDEX',
    /pass --shard-total <completions> or set AGENTEST_SHARD_TOTAL; --shard 1\/1 runs the whole suite/,
  );
  failsWith(
    () => chooseShard({ shardTotal: 2 }, { JOB_COMPLETION_INDEX: '2' }),
    'SHARD_ENV_INVALID',
    'JOB_COMPLETION_INDEX',
    /JOB_COMPLETION_INDEX=2 is beyond --shard-total 2/,
  );
});

test('--shard-total belongs to a Kubernetes Indexed Job: with --shard, another CI or no index it is refused', () => {
  failsWith(
    () => chooseShard({ shard: { index: 1, total: 2 }, shardTotal: 2 }, {}),
    'FLAG_INVALID',
    '--shard-total',
    /give one of them/,
  );
  failsWith(
    () => chooseShard({ shardTotal: 2 }, { CI_NODE_INDEX: '1', CI_NODE_TOTAL: '2' }),
    'FLAG_INVALID',
    '--shard-total',
    /GitLab gives the total in CI_NODE_TOTAL/,
  );
  failsWith(() => chooseShard({ shardTotal: 2 }, {}), 'FLAG_INVALID', '--shard-total', /needs JOB_COMPLETION_INDEX/);
});

test('--shard-mode balanced with no shard to pack for is refused, naming the flag and what to add', () => {
  failsWith(
    () => chooseShard({ shardMode: 'balanced' }, {}),
    'FLAG_INVALID',
    '--shard-mode',
    /^--shard-mode balanced packs the cases of one shard, but this run names none: add --shard <index>\/<total> \(e\.g\. --shard 1\/4\), or run it as a parallel CI job \(GitLab, Buildkite, CircleCI, a Kubernetes Indexed Job\)/,
  );
  assert.equal(chooseShard({ shardMode: 'hash' }, {}), undefined, 'the default mode needs no shard');
  assert.deepEqual(chooseShard({ shardMode: 'balanced', shard: { index: 1, total: 2 } }, {}), {
    index: 1,
    total: 2,
    source: '--shard',
  });
  assert.deepEqual(chooseShard({ shardMode: 'balanced' }, { CI_NODE_INDEX: '2', CI_NODE_TOTAL: '2' }), {
    index: 2,
    total: 2,
    source: 'GitLab CI_NODE_INDEX/CI_NODE_TOTAL',
  });
  // A CI job that is the only one of its kind runs the whole suite, balanced or not: the pipeline is the same.
  assert.equal(chooseShard({ shardMode: 'balanced' }, { CIRCLE_NODE_INDEX: '0', CIRCLE_NODE_TOTAL: '1' }), undefined);
});

const ids = (count: number, prefix = 'case') => Array.from({ length: count }, (_, i) => `${prefix}-${i}`);

test('the hash assignment puts every case in exactly one of N shards, spread evenly', () => {
  for (const total of [1, 2, 3, 4, 7]) {
    const suite = ids(1000);
    const shards = Array.from({ length: total }, (_, i) => {
      const include = inShard({ index: i + 1, total });
      return suite.filter((id) => include({ id, kind: 'agent', input: id }));
    });
    const union = shards.flat();
    assert.equal(union.length, suite.length, `disjoint over ${total} shards`);
    assert.deepEqual(new Set(union), new Set(suite), `complete over ${total} shards`);
    for (const shard of shards)
      assert.ok(Math.abs(shard.length - 1000 / total) < 0.2 * (1000 / total), `even: ${shard.length}`);
  }
});

test('adding cases moves no other case to another shard, and the assignment never changes', () => {
  const before = new Map(ids(500).map((id) => [id, shardOfCase(id, 4)]));
  const grown = [...ids(500), ...ids(200, 'added')];
  for (const id of grown) if (before.has(id)) assert.equal(shardOfCase(id, 4), before.get(id), id);
  // Fixed values, so that a change of hash (which would reshuffle every team's shards) is noticed.
  assert.deepEqual(
    ['T001', 'T002', 'TestSystemReady', 'case-00'].map((id) => shardOfCase(id, 4)),
    [2, 2, 3, 4],
  );
});

test('balanced mode packs by duration, longest first, each case into the least loaded shard', () => {
  const durations = new Map([
    ['e', 1],
    ['a', 10],
    ['c', 8],
    ['b', 9],
    ['d', 1],
  ]);
  // a→1 (10), b→2 (9), c→2 (17), d→1 (11), e→1 (12): 12 against 17, where file order would give 19 against 9.
  assert.deepEqual(Object.fromEntries(packByDuration(durations, 2)), { a: 1, b: 2, c: 2, d: 1, e: 1 });
});

test('a balanced split packs only the cases the run selects; a case of no recorded time counts as the median', () => {
  const durations = new Map([
    ['a', 10],
    ['b', 9],
    ['c', 8],
    ['gone', 100],
  ]);
  const packing = packSuite(['a', 'b', 'c', 'new-1', 'new-2'], durations, 2);
  assert.equal(packing.unknown, 2);
  assert.equal(packing.median, 9);
  // a→1 (10), b→2 (9), new-1→2 (18, at the median 9), new-2→1 (19), c→2 (26);
  // "gone" is no longer in the suite and takes no room.
  assert.deepEqual(Object.fromEntries(packing.shards), { a: 1, b: 2, 'new-1': 2, 'new-2': 1, c: 2 });
  const none = packSuite(ids(6), new Map(), 3);
  assert.deepEqual(
    [1, 2, 3].map((index) => [...none.shards.values()].filter((s) => s === index).length),
    [2, 2, 2],
    'with no recorded time at all the cases spread by count',
  );
});

test('--shard-mode and --shard-durations go together, and name themselves when they do not', () => {
  const flags = (extra: Record<string, string>) => parseFlags({ input: 'cases.jsonl', ...extra });
  assert.equal(flags({}).shardMode, 'hash');
  assert.deepEqual(
    { ...flags({ shardMode: 'balanced', shardDurations: 'run.jsonl' }) },
    { ...flags({}), shardMode: 'balanced', shardDurations: 'run.jsonl' },
  );
  failsWith(() => flags({ shardMode: 'fast' }), 'FLAG_INVALID', '--shard-mode', /must be hash or balanced, got "fast"/);
  assert.deepEqual({ ...flags({ shardMode: 'balanced' }) }, { ...flags({}), shardMode: 'balanced' }, 'the history');
  failsWith(
    () => flags({ shardDurations: 'run.jsonl' }),
    'FLAG_INVALID',
    '--shard-durations',
    /is for --shard-mode balanced/,
  );
});

test('balanced mode spreads cases of no recorded time by count', () => {
  const zero = new Map(ids(9).map((id) => [id, 0]));
  const counts = [1, 2, 3].map((index) => [...packByDuration(zero, 3).values()].filter((s) => s === index).length);
  assert.deepEqual(counts, [3, 3, 3]);
});
