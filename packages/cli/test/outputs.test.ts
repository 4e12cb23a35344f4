import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentest, fixture, jsonl, MIXED, readJsonl } from './helpers.js';

/** What a run left in the project, apart from its run history (`.agentest/`, kept by every run of a suite). */
function reportFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name !== '.agentest')
    .sort();
}

test('file mode writes {input_dir}/output-{YYYYMMDDHHMMSS}.jsonl: the event stream, start to summary', async () => {
  const dir = fixture({ 'tests/inputs.jsonl': MIXED });
  const before = new Date();
  const run = await agentest(['test', '-i', 'tests/inputs.jsonl', '-n', 'echo'], { cwd: dir });
  const after = new Date();
  assert.equal(run.code, 1, run.stderr);
  const files = readdirSync(join(dir, 'tests')).filter((f) => f.startsWith('output-'));
  assert.equal(files.length, 1);
  const match = /^output-(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})\.jsonl$/.exec(files[0]!);
  assert.ok(match, files[0]);
  const [, y, mo, d, h, mi, s] = match!.map(Number);
  const stamped = new Date(y!, mo! - 1, d, h, mi, s);
  assert.ok(
    stamped.getTime() >= Math.floor(before.getTime() / 1000) * 1000 && stamped <= after,
    `local time of the run: ${stamped} is not between ${before} and ${after}`,
  );
  assert.match(run.stdout, new RegExp(`Output: tests/${files[0]}`));

  const events = readJsonl(readFileSync(join(dir, 'tests', files[0]!), 'utf8'));
  assert.equal(events[0]!.type, 'start');
  assert.equal(events.at(-1)!.type, 'summary');
  assert.deepEqual(
    new Set(events.map((e) => e.type)),
    new Set(['start', 'case_start', 'result', 'summary']),
    'one run per case: the result line is the whole record',
  );
  const summary = events.at(-1)!;
  assert.equal(summary.total, 3);
  assert.equal(summary.failed, 1);
  const failed = events.find((e) => e.type === 'result' && e.id === 'T3')!;
  assert.equal(failed.status, 'failed');
  assert.equal(failed.error, "output does not contain 'hello'");
  assert.ok(!JSON.stringify(events).includes('"reply"'), 'full replies stay out of the file');
});

/** Yao's field names, in Yao's order where the order is part of the format. */
const STABILITY_FIELDS = [
  'id',
  'input',
  'runs',
  'passed',
  'failed',
  'pass_rate',
  'consistency',
  'stable',
  'stability_class',
  'avg_duration_ms',
  'min_duration_ms',
  'max_duration_ms',
  'std_deviation_ms',
  'pass_hat_k',
  'pass_rate_ci',
  'run_details',
];
const METADATA_FIELDS = ['started_at', 'completed_at', 'version', 'input_file', 'output_file', 'options'];

test('.json is the full report with Yao field names; --runs adds stability_results', async () => {
  const dir = fixture({ 'inputs.jsonl': MIXED });
  const run = await agentest(
    ['test', '-i', 'inputs.jsonl', '-n', 'echo', '--runs', '2', '-o', 'out/report.json', '-u', 'ci-user'],
    { cwd: dir },
  );
  assert.equal(run.code, 1, run.stderr);
  const report = JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8'));
  assert.deepEqual(Object.keys(report), ['summary', 'environment', 'results', 'stability_results', 'metadata']);
  assert.equal(report.summary.runs_per_case, 2);
  assert.equal(report.summary.total_runs, 6);
  assert.equal(report.environment.user_id, 'ci-user');
  assert.deepEqual(Object.keys(report.results[0]).slice(0, 8), [
    'id',
    'status',
    'input',
    'output',
    'expected',
    'duration_ms',
    'error',
    'assertions',
  ]);
  assert.equal(report.results[0].expected, null);
  const stability = report.stability_results.find((s: { id: string }) => s.id === 'T3');
  for (const key of STABILITY_FIELDS) assert.ok(key in stability, `stability_results has ${key}`);
  assert.equal(stability.stability_class, 'highly_unstable');
  assert.deepEqual(Object.keys(stability.run_details[0]), ['run', 'status', 'duration_ms', 'output', 'error']);
  assert.deepEqual(Object.keys(report.metadata), METADATA_FIELDS);
  assert.equal(report.metadata.input_file, 'inputs.jsonl');
  assert.equal(report.metadata.output_file, join(dir, 'out/report.json'));
  assert.deepEqual(
    reportFiles(dir),
    ['inputs.jsonl', 'out', 'package.json'],
    'with -o, only the files asked for: no default JSONL beside the input',
  );
});

test('--no-jsonl writes only what -o asks; -r report.json picks the built-in JSON report', async () => {
  const dir = fixture({ 'inputs.jsonl': MIXED });
  const run = await agentest(
    ['test', '-i', 'inputs.jsonl', '-n', 'echo', '--no-jsonl', '-r', 'report.json', '-o', 'custom.out'],
    { cwd: dir },
  );
  assert.equal(run.code, 1, run.stderr);
  assert.deepEqual(reportFiles(dir), ['custom.out', 'inputs.jsonl', 'package.json']);
  assert.equal(JSON.parse(readFileSync(join(dir, 'custom.out'), 'utf8')).summary.total, 3);
});

test('message mode prints the reply on stdout and writes no file', async () => {
  const dir = fixture({});
  const run = await agentest(['test', '-i', 'hello there', '-n', 'echo'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, 'hello there\n');
  assert.deepEqual(readdirSync(dir), ['package.json']);
  const withFile = await agentest(['test', '-i', 'hello there', '-n', 'echo', '-o', 'reply.json'], { cwd: dir });
  assert.equal(withFile.code, 0, withFile.stderr);
  assert.equal(JSON.parse(readFileSync(join(dir, 'reply.json'), 'utf8')).results[0].output, 'hello there');
  assert.match(withFile.stdout, /Agent Test/);
});

test('--run, --fail-fast and --parallel shape what runs', async () => {
  const many = jsonl(
    Array.from({ length: 8 }, (_, i) => ({
      id: `C${i}`,
      input: `case ${i}`,
      assert: { type: 'contains', value: i === 2 ? 'nope' : 'case' },
    })),
  );
  const dir = fixture({ 'inputs.jsonl': many });
  const filtered = await agentest(['test', '-i', 'inputs.jsonl', '-n', 'echo', '--run', 'C[01]$', '-o', 'f.jsonl'], {
    cwd: dir,
  });
  assert.equal(filtered.code, 0, filtered.stderr);
  assert.deepEqual(
    readJsonl(readFileSync(join(dir, 'f.jsonl'), 'utf8'))
      .filter((e) => e.type === 'result')
      .map((e) => e.id),
    ['C0', 'C1'],
  );
  const failFast = await agentest(['test', '-i', 'inputs.jsonl', '-n', 'echo', '--fail-fast', '-o', 'ff.jsonl'], {
    cwd: dir,
  });
  assert.equal(failFast.code, 1);
  const failFastEvents = readJsonl(readFileSync(join(dir, 'ff.jsonl'), 'utf8'));
  const ran = failFastEvents.filter((e) => e.type === 'result' && !e.skip_reason);
  assert.deepEqual(
    ran.map((e) => e.id),
    ['C0', 'C1', 'C2'],
  );
  // The cases --fail-fast never started are listed as not run, and the summary says why it stopped.
  const notRun = failFastEvents.filter((e) => e.type === 'result' && e.skip_reason);
  assert.ok(notRun.length > 0);
  for (const e of notRun) assert.match(String(e.skip_reason), /^not run: --fail-fast after case C2 failed$/);
  const failFastSummary = failFastEvents.at(-1)!;
  assert.equal(failFastSummary.not_run, notRun.length);
  assert.equal(failFastSummary.total, ran.length + notRun.length);
  assert.match(failFast.stdout, /Stopped early: --fail-fast after case C2 failed/);
  const parallel = await agentest(['test', '-i', 'inputs.jsonl', '-n', 'echo', '--parallel', '4', '-o', 'p.jsonl'], {
    cwd: dir,
  });
  assert.equal(parallel.code, 1);
  assert.equal(readJsonl(readFileSync(join(dir, 'p.jsonl'), 'utf8'))[0]!.parallel, 4);
  assert.match(parallel.stdout, /ℹ Parallel: 4/);
  const none = await agentest(['test', '-i', 'inputs.jsonl', '-n', 'echo', '--run', 'ZZZ'], { cwd: dir });
  assert.equal(none.code, 2);
  assert.match(none.stderr, /error\[NO_CASES\]: --run ZZZ matched no case/);
});

test('an output the run could not write is refused before the first case, naming the flag or the entry', async () => {
  const dir = fixture({
    'cases.jsonl': jsonl([{ id: 'T1', input: 'hello', assert: { type: 'contains', value: 'hello' } }]),
    'taken.txt': 'a file where a folder is wanted\n',
    'report.json/keep.txt': 'a folder named like the report\n',
    'agentest.config.mjs': `export default { reporters: ['console', ['junit', { output: 'taken.txt/junit.xml' }]] };\n`,
  });
  const flag = await agentest(
    ['test', '-i', 'cases.jsonl', '-n', 'echo', '--reporter', 'console', '-o', 'report.json'],
    {
      cwd: dir,
    },
  );
  assert.equal(flag.code, 2, flag.stderr);
  assert.match(flag.stderr, /error\[REPORTER_INVALID\]: -o .*report\.json: cannot write the file: it is a folder/);
  assert.doesNotMatch(flag.stdout, /\[T1\]/, 'no case ran');
  const config = await agentest(['test', '-i', 'cases.jsonl', '-n', 'echo'], { cwd: dir });
  assert.equal(config.code, 2, config.stderr);
  assert.match(
    config.stderr,
    /reporters\[1\] \(.*junit\.xml\): cannot write the file: .*taken\.txt is a file, not a folder/,
  );
  assert.doesNotMatch(config.stdout, /\[T1\]/, 'no case ran');
  assert.deepEqual(
    readdirSync(dir).filter((name) => name.startsWith('output-')),
    [],
    'no default output either',
  );
});
