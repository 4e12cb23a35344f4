/**
 * Splitting a suite across machines: three shard processes of one suite, each chosen a different way
 * (`--shard`, GitLab's variables, a Kubernetes Indexed Job's), run disjoint sets of cases, each case
 * with all its runs, that together are exactly the cases of one unsharded run.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runCli } from './helpers/cli.js';
import { readEvents, resultsById, type Event } from './helpers/events.js';
import { workspace, writeCases } from './helpers/workspace.js';

const IDS = Array.from({ length: 24 }, (_, i) => `case-${String(i).padStart(2, '0')}`);
/** The CI variables of the machine running the tests must not choose a shard for the runs below. */
const NO_CI_SHARD: NodeJS.ProcessEnv = Object.fromEntries(
  [
    'CI_NODE_INDEX',
    'CI_NODE_TOTAL',
    'BUILDKITE_PARALLEL_JOB',
    'BUILDKITE_PARALLEL_JOB_COUNT',
    'CIRCLE_NODE_INDEX',
    'CIRCLE_NODE_TOTAL',
    'JOB_COMPLETION_INDEX',
    'AGENTEST_SHARD_TOTAL',
  ].map((name) => [name, '']),
);
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
    env: { ...NO_CI_SHARD, ...env },
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
  ] as const) {
    const result = await runCli(['test', '-i', 'cases.jsonl', '-n', 'echo', ...args], {
      cwd: dir,
      env: { ...NO_CI_SHARD, ...env },
    });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, message);
    assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
  }
});
