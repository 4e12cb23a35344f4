import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { AgentestPlugin, ResultEvent, RunEvent } from '@agentest/kernel';
import { ReportCollector, renderMarkdown } from '@agentest/report';
import githubReporter, { escapeData, escapeProperty } from '../src/index.js';
import { MOST_FAILURES_LISTED } from '../src/job-summary-cases.js';
import { mixedCases, runScenario, tempDir } from '../../report/test/scenario.js';

test('in GitHub Actions: one error annotation per failing case at its JSONL line, and a job summary appended', async () => {
  const dir = await tempDir();
  const summaryFile = join(dir, 'step-summary.md');
  await writeFile(summaryFile, 'previous step\n');
  const lines: string[] = [];
  const cases = [
    ...mixedCases(),
    {
      id: 'odd,id: 100%',
      source: { file: join(dir, 'tests/extra.jsonl'), line: 7 },
      behaviour: () => ({ status: 'failed' as const, error: '50% off\r\nnext' }),
    },
  ];
  const env = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summaryFile, GITHUB_WORKSPACE: dir };
  await runScenario(cases, [githubReporter({ env, cwd: dir, write: (line) => lines.push(line) })]);
  assert.deepEqual(lines, [
    "::error file=tests/inputs.jsonl,line=2,title=T002::failed: output does not contain 'cloud'",
    '::error file=tests/inputs.jsonl,line=3,title=T003::timeout: timeout after 30s',
    '::error file=tests/inputs.jsonl,line=4,title=T004::error: agent exploded%0A  at step 2',
    '::error file=tests/extra.jsonl,line=7,title=odd%2Cid%3A 100%25::failed: 50%25 off%0D%0Anext',
  ]);
  const summary = await readFile(summaryFile, 'utf8');
  assert.match(summary, /^previous step\n# Agent Test Report\n\n## Summary/);
  assert.match(summary, /## Failures\n\n### ❌ T002 - failed/);
  assert.doesNotMatch(summary, /### ✅ T001/);
  assert.match(summary, /_3 cases that passed or were skipped are not listed._/);
});

test('with runs > 1 the annotation says how many runs passed; past maxAnnotations one notice counts the rest', async () => {
  const lines: string[] = [];
  const cases = ['a', 'b', 'c'].map((id) => ({
    id,
    behaviour: (run: number) => (run === 1 ? { output: 'ok' } : { status: 'failed' as const, error: `bad ${id}` }),
  }));
  await runScenario(
    cases,
    [githubReporter({ env: { GITHUB_ACTIONS: 'true' }, write: (line) => lines.push(line), maxAnnotations: 2 })],
    { runs: 2 },
  );
  assert.deepEqual(lines, [
    '::error file=tests/inputs.jsonl,line=1,title=a::failed (1/2 runs passed): bad a',
    '::error file=tests/inputs.jsonl,line=1,title=b::failed (1/2 runs passed): bad b',
    '::notice::1 more failing cases were not annotated; see the job summary',
  ]);
});

test('outside GitHub Actions it writes nothing', async () => {
  const dir = await tempDir();
  const lines: string[] = [];
  const summaryFile = join(dir, 'never.md');
  await runScenario(mixedCases(), [
    githubReporter({ env: { GITHUB_STEP_SUMMARY: summaryFile }, write: (line) => lines.push(line) }),
  ]);
  assert.deepEqual(lines, []);
  assert.equal(existsSync(summaryFile), false);
});

test('escaping follows the runner: %, CR, LF everywhere; also : and , in properties', () => {
  assert.equal(escapeData('a%b\r\nc:d,e'), 'a%25b%0D%0Ac:d,e');
  assert.equal(escapeProperty('a%b\r\nc:d,e'), 'a%25b%0D%0Ac%3Ad%2Ce');
});

/** Listens after the reporter: every result kept whole, as a report that holds the whole run would. */
function wholeRun(into: { markdown?: string }, seen?: (event: ResultEvent) => void): AgentestPlugin {
  const collector = new ReportCollector();
  return {
    name: 'test:whole-run',
    apply: ({ hooks }) =>
      hooks.report.tap('test:whole-run', (event: RunEvent) => {
        if (event.type === 'start') collector.onStart(event);
        else if (event.type === 'result' && seen) seen(event);
        else if (event.type === 'result') collector.onResult(event);
        else if (event.type === 'summary')
          into.markdown = `${renderMarkdown(collector.build(event), { results: 'failures', maxResults: 100 })}\n`;
      }),
  };
}

/** The garbage collector, which a test may run to see what is still held. */
function collectGarbage(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

test('over a 20k-case run it holds only the failing cases its summary lists, not every result', async () => {
  const dir = await tempDir();
  const summaryFile = join(dir, 'step-summary.md');
  const cases = Array.from({ length: 20_000 }, (_, i) => ({
    id: `c${i}`,
    behaviour: () => (i % 10 ? { output: `ok ${i}` } : { status: 'failed' as const, error: `bad ${i}` }),
  }));
  const runs: WeakRef<object>[] = [];
  const reporter = githubReporter({
    env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summaryFile },
    write: () => {},
  });
  await runScenario(cases, [reporter, wholeRun({}, (event) => void runs.push(new WeakRef(event.runs[0]!)))], {
    parallel: 8,
  });
  collectGarbage()();
  const held = runs.filter((run) => run.deref() !== undefined).length;
  assert.equal(runs.length, 20_000);
  assert.ok(held <= MOST_FAILURES_LISTED, `${held} of 20,000 runs still held`);
  assert.ok(reporter, 'the reporter itself is still alive: what it holds was looked at');
  const summary = await readFile(summaryFile, 'utf8');
  assert.match(summary, /_…and 1900 more failures, left out to keep this report short._/);
  assert.match(summary, /_18000 cases that passed or were skipped are not listed._/);
});

test('its job summary is the one a report holding every result renders: failures, stability, sequential runs, flaky cases', async () => {
  const dir = await tempDir();
  const summaryFile = join(dir, 'step-summary.md');
  const cases = Array.from({ length: 300 }, (_, i) => ({
    id: `c${i}`,
    ...(i % 7 === 0 ? { name: `case number ${i}` } : {}),
    behaviour: (run: number) =>
      i % 2 && (run === 2 || i % 3)
        ? { status: 'failed' as const, error: `bad ${i} in run ${run}` }
        : { output: `ok ${i}` },
  }));
  // As the history plugin and a run policy do, before the reporters: a flaky history, a sequential decision.
  const enrich: AgentestPlugin = {
    name: 'test:enrich',
    apply: ({ hooks }) =>
      hooks.report.tap({ name: 'test:enrich', stage: -100 }, (event: RunEvent) => {
        if (event.type === 'result' && event.id.endsWith('5')) {
          event.history = {
            recent: ['passed', 'failed'],
            flaky: { flips: 1, transitions: 1, flip_rate: 1, flip_rate_ci: [0.2, 1] },
          };
          event.run_policy = { runs: 2, max: 5, decision: 'fail', reason: 'sure' };
        } else if (event.type === 'summary')
          event.flaky = [{ id: 'c5', flips: 1, transitions: 1, flip_rate: 1, flip_rate_ci: [0.2, 1] }];
      }),
  };
  const expected: { markdown?: string } = {};
  const env = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summaryFile };
  await runScenario(cases, [enrich, githubReporter({ env, write: () => {} }), wholeRun(expected)], { runs: 2 });
  const summary = await readFile(summaryFile, 'utf8');
  assert.match(summary, /## Stability Analysis/);
  assert.match(summary, /## Sequential Runs/);
  assert.match(summary, /## Flaky Cases/);
  assert.match(summary, /more failures, left out/);
  assert.equal(summary, expected.markdown);
});

test('a run a budget stopped early gets a warning annotation, as an interrupted run does', async () => {
  const lines: string[] = [];
  const budget: AgentestPlugin = {
    name: 'test:budget',
    apply({ hooks, halt }) {
      hooks.report.tap('test:budget', (event) => {
        if (event.type === 'result') halt('budget (--max-cost 2 reached: $2.0143 spent)');
      });
    },
  };
  await runScenario(
    [{ id: 'a' }, { id: 'b' }],
    [budget, githubReporter({ env: { GITHUB_ACTIONS: 'true' }, write: (line) => lines.push(line) })],
  );
  assert.deepEqual(lines, [
    '::warning title=agentest::stopped early: budget (--max-cost 2 reached: $2.0143 spent); 1 case not run; the results are partial',
  ]);
});
