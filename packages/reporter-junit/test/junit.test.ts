import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentestPlugin } from '@agentest/kernel';
import junitReporter from '../src/index.js';
import { mixedCases, runScenario, tempDir } from '../../report/test/scenario.js';
import { findAll, parseXml } from './parse-xml.js';

async function junit(cases: Parameters<typeof runScenario>[0], options: Parameters<typeof runScenario>[2] = {}) {
  const dir = await tempDir();
  await runScenario(cases, [junitReporter({ output: 'reports/junit.xml', cwd: dir })], options);
  const xml = await readFile(join(dir, 'reports/junit.xml'), 'utf8');
  return { xml, root: parseXml(xml) };
}

/** The mixed suite, plus a case from a second file. */
function mixedJunit() {
  const cases = mixedCases();
  cases.push({ id: 'other-file', source: { file: 'tests/more.jsonl', line: 9 } });
  return junit(cases);
}

test('one testsuite per source file, one testcase per case, with counts, classname, line and seconds', async () => {
  const { xml, root } = await mixedJunit();
  assert.match(xml, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites /);
  assert.equal(root.name, 'testsuites');
  assert.deepEqual(
    {
      name: root.attrs.name,
      tests: root.attrs.tests,
      failures: root.attrs.failures,
      errors: root.attrs.errors,
      skipped: root.attrs.skipped,
    },
    { name: 'agentest: keyword', tests: '7', failures: '2', errors: '1', skipped: '1' },
  );
  const suites = findAll(root, 'testsuite');
  assert.deepEqual(
    suites.map((s) => [s.attrs.name, s.attrs.tests]),
    [
      ['tests/inputs.jsonl', '6'],
      ['tests/more.jsonl', '1'],
    ],
  );
  const byName = Object.fromEntries(findAll(root, 'testcase').map((tc) => [tc.attrs.name, tc]));
  assert.deepEqual(byName.T001!.attrs, {
    name: 'T001',
    classname: 'tests/inputs.jsonl',
    file: 'tests/inputs.jsonl',
    line: '1',
    time: '0.101',
  });
  assert.equal(byName.T001!.children.length, 0);
  const props = Object.fromEntries(findAll(root.children[0]!, 'property').map((p) => [p.attrs.name, p.attrs.value]));
  assert.deepEqual(props, {
    agent: 'keyword',
    connector: 'deepseek.v3',
    runs_per_case: '1',
    'metric.keyword_hit_rate': '50.0%',
    'metric.pass_rate': '50.0%',
  });
});

test('failures, timeouts, errors and skips as JUnit elements with their messages and output', async () => {
  const { root } = await mixedJunit();
  const byName = Object.fromEntries(findAll(root, 'testcase').map((tc) => [tc.attrs.name, tc]));
  const failure = byName.T002!.children.find((c) => c.name === 'failure')!;
  assert.equal(failure.attrs.message, "output does not contain 'cloud'");
  assert.equal(failure.attrs.type, 'contains');
  assert.equal(
    failure.text,
    "contains: output does not contain 'cloud'\n  expected: cloud\n  actual: costs | budgets\nsecond line",
  );
  assert.match(
    byName.T002!.children.find((c) => c.name === 'system-out')!.text,
    /^output: costs \| budgets\nsecond line$/,
  );
  assert.deepEqual(byName.T003!.children[0]!.attrs, { message: 'timeout after 30s', type: 'timeout' });
  assert.equal(byName.T003!.children[0]!.name, 'failure');
  const error = byName.T004!.children[0]!;
  assert.deepEqual(
    [error.name, error.attrs.message, error.text],
    ['error', 'agent exploded', 'agent exploded\n  at step 2'],
  );
  assert.deepEqual(
    [byName.T005!.children[0]!.name, byName.T005!.children[0]!.attrs.message],
    ['skipped', 'needs network'],
  );
});

test('runs > 1: one testcase per run named "id [run N]" with stability properties', async () => {
  const cases = [
    {
      id: 'flaky',
      behaviour: (run: number) => (run === 2 ? { status: 'failed' as const, error: 'wrong' } : { output: 'ok' }),
    },
    { id: 'skip-me', skip: true },
  ];
  const { root } = await junit(cases, { runs: 3 });
  const testcases = findAll(root, 'testcase');
  assert.deepEqual(
    testcases.map((t) => t.attrs.name),
    ['flaky [run 1]', 'flaky [run 2]', 'flaky [run 3]', 'skip-me'],
  );
  assert.equal(root.attrs.failures, '1');
  assert.equal(root.attrs.tests, '4');
  const props = Object.fromEntries(findAll(testcases[1]!, 'property').map((p) => [p.attrs.name, p.attrs.value]));
  assert.deepEqual(props, {
    'stability.pass_rate': '66.7',
    'stability.runs': '3',
    'stability.passed': '2',
    'stability.class': 'unstable',
    'stability.pass_hat_k': '0.2963',
    'stability.avg_duration_ms': '102',
  });
  assert.equal(testcases[1]!.children.find((c) => c.name === 'failure')!.attrs.message, 'wrong');
});

test('escapes markup and strips characters XML 1.0 cannot hold', async () => {
  const nasty = 'a <b> & "quotes" \'apos\' ]]> \u0000\u0007\u001b[31m\uFFFE lone\uD800 😀';
  const cases = [{ id: 'x"<&>', behaviour: () => ({ status: 'error' as const, error: nasty, output: nasty }) }];
  const { xml, root } = await junit(cases);
  assert.doesNotMatch(xml, /[\u0000\u0007\u001b\uFFFE]/);
  const testcase = findAll(root, 'testcase')[0]!;
  assert.equal(testcase.attrs.name, 'x"<&>');
  assert.equal(testcase.children[0]!.attrs.message, 'a <b> & "quotes" \'apos\' ]]> [31m lone 😀');
  assert.equal(testcase.children[0]!.text, 'a <b> & "quotes" \'apos\' ]]> [31m lone 😀');
});

test('a run a budget stopped early has an error testcase, so the CI test view is not green', async () => {
  const dir = await tempDir();
  const budget: AgentestPlugin = {
    name: 'test:budget',
    apply({ hooks, halt }) {
      hooks.report.tap('test:budget', (event) => {
        if (event.type === 'result') halt('budget (--max-tokens 1 reached: 5 tokens used)');
      });
    },
  };
  await runScenario(
    [{ id: 'a' }, { id: 'b' }, { id: 'c' }],
    [budget, junitReporter({ output: 'junit.xml', cwd: dir })],
  );
  const root = parseXml(await readFile(join(dir, 'junit.xml'), 'utf8'));
  assert.equal(root.attrs.errors, '1', 'the CI view counts the run as not green');
  const stopped = findAll(root, 'testcase').find((t) => t.attrs.classname === 'agentest')!;
  assert.equal(stopped.attrs.name, 'stopped early: budget (--max-tokens 1 reached: 5 tokens used); 2 cases not run');
  assert.deepEqual(stopped.children[0]!.attrs, { message: stopped.attrs.name, type: 'halted' });
});
