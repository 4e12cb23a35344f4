/**
 * An interrupted run says so in every format, with the number of cases that never ran: JUnit as an
 * error testcase a CI test view shows and a property, the JSON reports (agent and script shape) as
 * `interrupted` and `not_run`, the GitHub job summary and a warning annotation, Markdown, HTML, the
 * text summary and the console.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import jsonReporter from '@agentest/reporter-json';
import { everyReporter } from './helpers/every-reporter.js';
import { workspace } from './helpers/workspace.js';
import { runScenario, type ScenarioCase } from '../packages/report/test/scenario.js';

/** Five cases run one at a time; the second stops the run, so three never start. */
function interruptedCases(): { cases: ScenarioCase[]; interrupt: AbortSignal } {
  const controller = new AbortController();
  const cases: ScenarioCase[] = ['c1', 'c2', 'c3', 'c4', 'c5'].map((id) => ({
    id,
    behaviour: () => {
      if (id === 'c2') controller.abort();
      return { output: `answer of ${id}` };
    },
  }));
  return { cases, interrupt: controller.signal };
}

test('every format says the run was interrupted and how many cases did not run', async () => {
  const dir = workspace('interrupted');
  const reporters = everyReporter(dir);
  const { cases, interrupt } = interruptedCases();
  const outcome = await runScenario(cases, reporters.plugins, { signals: { interrupt } });
  assert.equal(outcome.summary.interrupted, true);
  assert.equal(outcome.summary.not_run, 3);
  const out = reporters.outputs();

  const junit = out['junit.xml']!;
  assert.match(
    junit,
    /<testcase name="run interrupted: 3 cases not run" classname="agentest" time="0">\s*<error message="run interrupted: 3 cases not run" type="interrupted">/,
  );
  assert.match(junit, /<property name="interrupted" value="true"\/>/);
  assert.match(junit, /<property name="not_run" value="3"\/>/);
  assert.match(junit, /<testsuites [^>]*errors="1"/, 'the CI view counts the run as not green');

  const json = JSON.parse(out['report.json']!) as { summary: Record<string, unknown> };
  assert.equal(json.summary.interrupted, true);
  assert.equal(json.summary.not_run, 3);
  const summaryLine = JSON.parse(out['run.jsonl']!.trim().split('\n').at(-1)!) as Record<string, unknown>;
  assert.deepEqual([summaryLine.type, summaryLine.interrupted, summaryLine.not_run], ['summary', true, 3]);

  for (const name of ['report.md', 'report.html', 'summary.txt', 'step-summary.md']) {
    assert.match(out[name]!, /run interrupted: 3 cases not run/i, `${name} says the run was interrupted`);
  }
  assert.match(out['report.md']!, /^> ⚠️ \*\*Run interrupted: 3 cases not run\.\*\*/m);
  assert.match(out.github!, /^::warning title=agentest::run interrupted: 3 cases not run; the results are partial$/m);
  assert.match(out.console!, /⚠ Interrupted: 2 test cases finished, 3 not run/);
});

test('the script-mode JSON report says it was interrupted, with the count not run', async () => {
  const dir = workspace('interrupted-script');
  const { cases, interrupt } = interruptedCases();
  await runScenario(cases, [jsonReporter({ output: 'report.json', cwd: dir })], {
    kind: 'script',
    signals: { interrupt },
  });
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
    type: string;
    summary: Record<string, unknown>;
  };
  assert.equal(report.type, 'script_test');
  assert.equal(report.summary.interrupted, true);
  assert.equal(report.summary.not_run, 3);
});
