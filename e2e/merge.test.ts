/**
 * Past one machine, end to end: shard processes started with each CI's variables write blobs, and
 * `agentest merge` turns them into the same run one unsharded process makes (cases, order, statuses,
 * stability figures, summary, verdict, exit code). Blobs that are not every shard of one run make
 * merge fail naming what is wrong; a shard killed with SIGKILL is resumed and then merges complete.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { finished, runCli, spawnCli, stackFrames } from './helpers/cli.js';
import { countResultLines, readEvents, waitFor, type Event } from './helpers/events.js';
import { expectedOutcome, NO_CI, writeDeterministicProject } from './helpers/sharded-suite.js';
import { workspace } from './helpers/workspace.js';

const IDS = Array.from({ length: 18 }, (_, i) => `case-${String(i).padStart(2, '0')}`);
const TEST = ['test', '-i', 'cases.jsonl', '-n', 'det', '--runs', '3', '--threshold', 'pass_rate=0.5'];
let dir: string;
let whole: Event[];
let wholeCode: number | null;
let wholeStdout: string;

before(async () => {
  dir = workspace('merge');
  writeDeterministicProject(dir, IDS);
  const run = await runCli([...TEST, '-o', 'whole.jsonl'], { cwd: dir, env: NO_CI });
  wholeCode = run.code;
  wholeStdout = run.stdout;
  whole = readEvents(join(dir, 'whole.jsonl'));
});

/** Starts every shard at once, as a CI's parallel jobs do, each with its own variables. */
async function shards(envs: readonly NodeJS.ProcessEnv[], args: readonly string[] = []) {
  const runs = await Promise.all(
    envs.map((env) => runCli([...TEST, '--no-jsonl', ...args], { cwd: dir, env: { ...NO_CI, ...env } })),
  );
  for (const run of runs) assert.ok(run.code === 0 || run.code === 1, run.stderr);
  return runs;
}

async function merge(args: readonly string[]) {
  const run = await runCli(['merge', ...args], { cwd: dir, env: NO_CI });
  assert.deepEqual(stackFrames(run.stderr), [], 'no stack trace');
  return run;
}

/** What must agree between a merged run and the unsharded one: timing aside, everything. */
function outcome(events: readonly Event[]) {
  const results = events.filter((e) => e.type === 'result');
  const summary = events.find((e) => e.type === 'summary')!;
  return {
    cases: results.map((r) => ({
      id: r.id,
      status: r.status,
      runs: events.filter((e) => e.type === 'run_result' && e.id === r.id).map((e) => (e.execution as Event).status),
      stability: withoutTimes(r.stability as Record<string, unknown>),
    })),
    summary: pick(summary, [
      'total',
      'passed',
      'failed',
      'errors',
      'total_runs',
      'overall_pass_rate',
      'stable_cases',
      'unstable_cases',
      'metrics',
      'thresholds',
      'verdict',
    ]),
  };
}

function withoutTimes(stability: Record<string, unknown>) {
  return Object.fromEntries(Object.entries(stability).filter(([key]) => !key.endsWith('_ms')));
}

function pick(event: Event, keys: readonly string[]) {
  return Object.fromEntries(keys.map((key) => [key, event[key]]));
}

test('the unsharded run has stable passes, stable failures and unstable cases', () => {
  const byId = new Map(whole.filter((e) => e.type === 'result').map((r) => [r.id, r]));
  assert.deepEqual([...byId.keys()], IDS);
  for (const id of IDS) assert.equal(byId.get(id)!.status, expectedOutcome(id, 3).status, id);
  const summary = whole.at(-1)!;
  assert.ok((summary.stable_cases as number) > 0 && (summary.unstable_cases as number) > 0);
  // 10 of 18 cases pass: above the 0.5 threshold, so the verdict ships and the run exits 0 despite
  // its failures; a merge that judged by the failures alone would exit 1.
  assert.equal((summary.verdict as { can_ship: boolean }).can_ship, true);
  assert.equal(wholeCode, 0);
});

for (const { name, envs, args = [], runId } of [
  {
    name: 'one CircleCI job (--blob-dir)',
    envs: [{ CIRCLE_NODE_INDEX: '0', CIRCLE_NODE_TOTAL: '1', CIRCLE_WORKFLOW_ID: 'wf-1' }],
    args: ['--blob-dir', 'blobs-circle'],
    runId: 'run wf-1 (CIRCLE_WORKFLOW_ID)',
  },
  {
    name: 'three GitLab jobs',
    envs: [1, 2, 3].map((i) => ({ CI_NODE_INDEX: String(i), CI_NODE_TOTAL: '3', CI_PIPELINE_ID: '777' })),
    args: ['--blob-dir', 'blobs-gitlab'],
    runId: 'run 777 (CI_PIPELINE_ID)',
  },
  {
    name: 'four Buildkite jobs',
    envs: [0, 1, 2, 3].map((i) => ({
      BUILDKITE_PARALLEL_JOB: String(i),
      BUILDKITE_PARALLEL_JOB_COUNT: '4',
      BUILDKITE_BUILD_ID: 'bk-9',
    })),
    args: ['--blob-dir', 'blobs-buildkite'],
    runId: 'run bk-9 (BUILDKITE_BUILD_ID)',
  },
  {
    name: 'four GitHub Actions matrix jobs (--shard)',
    envs: [1, 2, 3, 4].map((i) => ({ SHARD: `${i}/4`, GITHUB_RUN_ID: '5150', GITHUB_RUN_ATTEMPT: '2' })),
    args: ['--blob-dir', 'blobs-github'],
    runId: 'run 5150-2 (GITHUB_RUN_ID+GITHUB_RUN_ATTEMPT)',
  },
  {
    name: 'three pods of a Kubernetes Indexed Job (no run id)',
    envs: [0, 1, 2].map((i) => ({ JOB_COMPLETION_INDEX: String(i), AGENTEST_SHARD_TOTAL: '3' })),
    args: ['--blob-dir', 'blobs-k8s'],
    runId: 'a run with no run id, its shards grouped by suite and config hash',
  },
]) {
  test(`${name}: merge gives the unsharded run's cases, statuses, stability figures and verdict`, async () => {
    const blobDir = args[1]!;
    // GitHub Actions has no shard variables: the workflow passes --shard from the matrix.
    await Promise.all(
      envs.map(async (env) => {
        const { SHARD, ...rest } = env as NodeJS.ProcessEnv & { SHARD?: string };
        await shards([rest], [...args, ...(SHARD ? ['--shard', SHARD] : [])]);
      }),
    );
    assert.equal(readdirSync(join(dir, blobDir)).length, envs.length, 'one blob per shard');
    const merged = await merge([blobDir, '-o', `${blobDir}.jsonl`]);
    assert.equal(merged.code, wholeCode, merged.stderr);
    assert.ok(merged.stdout.includes(`Merging ${envs.length} shard`), merged.stdout);
    assert.ok(merged.stdout.includes(runId), merged.stdout);
    assert.deepEqual(outcome(readEvents(join(dir, `${blobDir}.jsonl`))), outcome(whole));
    // The console lists only the cases that did not pass, as the unsharded run printed them.
    const failed = new Set(whole.filter((e) => e.type === 'result' && e.status !== 'passed').map((e) => e.id));
    assert.ok(failed.size > 0);
    assert.deepEqual(
      caseLines(merged.stdout),
      caseLines(wholeStdout).filter((line) => failed.has(/\[(.*?)\]/.exec(line)![1])),
    );
  });
}

/** The console's line heading each case: `► [id] input  STATUS …`. */
const caseLines = (stdout: string) => stdout.split('\n').filter((line) => line.startsWith('► ['));

test("merge -v prints every case's line, as the unsharded run does", async () => {
  const merged = await merge(['blobs-circle', '-v', '-o', 'verbose.jsonl']);
  assert.equal(merged.code, wholeCode, merged.stderr);
  assert.deepEqual(caseLines(merged.stdout), caseLines(wholeStdout));
  assert.equal(caseLines(merged.stdout).length, IDS.length);
});

test('blobs that are not every shard of one run make merge fail with exit 2, naming what is wrong', async () => {
  const envs = [1, 2, 3].map((i) => ({ CI_NODE_INDEX: String(i), CI_NODE_TOTAL: '3', CI_PIPELINE_ID: '888' }));
  await shards(envs, ['--blob-dir', 'checked']);
  const blobs = readdirSync(join(dir, 'checked')).sort();
  const set = (name: string, files: readonly string[]) => {
    mkdirSync(join(dir, name));
    for (const file of files) copyFileSync(join(dir, 'checked', file), join(dir, name, file));
    return name;
  };
  const missing = set('missing', blobs.slice(0, 2));
  const duplicated = set('duplicated', blobs);
  copyFileSync(join(dir, 'checked', blobs[1]!), join(dir, duplicated, 'copy-of-shard-2.jsonl'));
  const version = set('version', blobs);
  const header = JSON.parse(readFileSync(join(dir, version, blobs[2]!), 'utf8').split('\n')[0]!) as Event;
  const rest = readFileSync(join(dir, version, blobs[2]!), 'utf8')
    .split('\n')
    .slice(1)
    .join('\n');
  writeFileSync(join(dir, version, blobs[2]!), `${JSON.stringify({ ...header, agentest_version: '0.0.1' })}\n${rest}`);
  const config = set('config', blobs.slice(0, 2));
  await runCli([...TEST.slice(0, -1), 'pass_rate=0.9', '--no-jsonl', '--blob-dir', config], {
    cwd: dir,
    env: { ...NO_CI, CI_NODE_INDEX: '3', CI_NODE_TOTAL: '3', CI_PIPELINE_ID: '888' },
  });
  for (const [folder, code, says] of [
    [missing, 'MERGE_INCOMPLETE', /missing shard 3\/3 of run 888/],
    [duplicated, 'BLOB_MISMATCH', /duplicated shard 2\/3: .* and .*copy-of-shard-2\.jsonl are the same shard/],
    [version, 'BLOB_MISMATCH', /different agentest version: shard 1\/3 .* by 0\.0\.1/],
    [config, 'BLOB_MISMATCH', /different config hash: shard 1\/3 \(.*\) has \w+, shard 3\/3 \(.*\) \w+/],
  ] as const) {
    const run = await merge([folder]);
    assert.equal(run.code, 2, `${folder}: ${run.stderr}`);
    assert.match(run.stderr, new RegExp(`error\\[${code}\\]`), folder);
    assert.match(run.stderr, says, folder);
  }
  // The merge writes the reports its config asks for, through the usual reporters.
  writeFileSync(join(dir, 'merge.config.json'), JSON.stringify({ reporters: [['json', { output: 'merged.json' }]] }));
  const intact = await merge(['checked', '--config', 'merge.config.json', '-o', 'checked.jsonl']);
  assert.equal(intact.code, wholeCode, intact.stderr);
  const report = JSON.parse(readFileSync(join(dir, 'merged.json'), 'utf8')) as { results: Event[]; summary: Event };
  assert.deepEqual(
    report.results.map((r) => [r.id, r.status]),
    whole.filter((e) => e.type === 'result').map((r) => [r.id, r.status]),
  );
  assert.deepEqual(report.summary.verdict, whole.at(-1)!.verdict);
  // A blob named twice (its folder and the file in it) is one blob, not a duplicated shard.
  const twice = await merge(['checked', join('checked', blobs[1]!), '-o', 'twice.jsonl']);
  assert.equal(twice.code, wholeCode, twice.stderr);
});

test('a shard killed with SIGKILL mid-run is resumed: only its unfinished cases run again, and merge is complete', async () => {
  const slow = workspace('merge-resume');
  writeDeterministicProject(slow, IDS, { slow: true });
  const args = ['test', '-i', 'cases.jsonl', '-n', 'det', '--runs', '2', '--no-jsonl', '--run-id', 'r1'];
  const first = await runCli([...args, '--shard', '1/2', '--blob-dir', 'blobs'], { cwd: slow, env: NO_CI });
  assert.ok(first.code === 0 || first.code === 1, first.stderr);
  const child = spawnCli([...args, '--shard', '2/2', '--blob-dir', 'blobs'], { cwd: slow, env: NO_CI });
  const done = finished(child);
  const blob = join(slow, 'blobs', 'cases-jsonl.r1.shard-2-of-2.jsonl');
  await waitFor(() => countResultLines(blob) >= 3, 'three finished cases in the blob');
  child.kill('SIGKILL');
  assert.equal((await done).signal, 'SIGKILL');
  const header = JSON.parse(readFileSync(blob, 'utf8').split('\n')[0]!) as { cases: string[] };
  const before = countResultLines(blob);
  assert.ok(before < header.cases.length, `killed mid-run: ${before} of ${header.cases.length} finished`);

  const early = await runCli(['merge', 'blobs'], { cwd: slow, env: NO_CI });
  assert.equal(early.code, 2, early.stderr);
  assert.match(early.stderr, /error\[MERGE_INCOMPLETE\].*shard 2\/2 .* has no result for \d+ of its \d+ cases/);
  assert.match(early.stderr, /--resume blobs\/cases-jsonl\.r1\.shard-2-of-2\.jsonl/);

  await refusedResumes(slow, args);
  assert.equal(countResultLines(blob), before, 'a refused resume adds nothing to the blob');

  const resumed = await runCli([...args, '--shard', '2/2', '--resume', 'blobs/cases-jsonl.r1.shard-2-of-2.jsonl'], {
    cwd: slow,
    env: NO_CI,
  });
  assert.ok(resumed.code === 0 || resumed.code === 1, resumed.stderr);
  const lines = readFileSync(blob, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Event);
  const resultIds = lines.filter((e) => e.type === 'result').map((e) => e.id);
  assert.deepEqual(
    [...resultIds].sort(),
    [...header.cases].sort(),
    'every case of the shard has one result: none ran twice',
  );
  const mark = lines.find((e) => e.type === 'resume')!;
  assert.equal(
    (mark.cases as string[]).length,
    header.cases.length - before,
    'the resume ran only the unfinished cases',
  );

  const merged = await runCli(['merge', 'blobs', '-o', 'merged.jsonl'], { cwd: slow, env: NO_CI });
  assert.equal(merged.code, 1, merged.stderr);
  const results = readEvents(join(slow, 'merged.jsonl')).filter((e) => e.type === 'result');
  assert.deepEqual(
    results.map((r) => [r.id, r.status]),
    IDS.map((id) => [id, expectedOutcome(id, 2).status]),
  );
});

/** A resume is the shard's own command: another shard or other flags are refused before any case runs. */
async function refusedResumes(cwd: string, args: readonly string[]): Promise<void> {
  for (const [other, says] of [
    [['--shard', '1/2'], /holds shard 2\/2, but this run is shard 1\/2/],
    [['--shard', '2/2', '--runs', '3'], /was written with another config file or other flags/],
  ] as const) {
    const refused = await runCli([...args, ...other, '--resume', 'blobs/cases-jsonl.r1.shard-2-of-2.jsonl'], {
      cwd,
      env: NO_CI,
    });
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /error\[BLOB_MISMATCH\]: --resume blobs\/cases-jsonl\.r1\.shard-2-of-2\.jsonl /);
    assert.match(refused.stderr, says);
  }
}
