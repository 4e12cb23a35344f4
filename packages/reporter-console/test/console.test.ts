import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { createKernel, type AgentestPlugin, type Execution, type RunPlan, type TestCase } from '@agentest/kernel';
import { verdictPlugin } from '@agentest/report';
import { yaoPlanContext } from '@agentest/plugin-agent';
import consoleReporter from '../src/index.js';

function plan(overrides: Partial<RunPlan> = {}): RunPlan {
  return {
    input: { input: 'inline', cwd: process.cwd() },
    runs: 1,
    parallel: 1,
    failFast: false,
    env: {},
    // The run's identity as the CLI gives it (User: test-user in the script header).
    context: yaoPlanContext({}),
    verbose: false,
    ...overrides,
  };
}

/** A loader and executor whose runs return the given executions, so every layout can be produced. */
function scripted(
  kind: 'agent' | 'script',
  cases: { id: string; input?: unknown; runs: Partial<Execution>[] }[],
  meta?: Record<string, unknown>,
): AgentestPlugin {
  const counters = new Map<string, number>();
  return {
    name: 'test:scripted',
    apply({ hooks }) {
      hooks.load.tap('test:scripted', () => ({
        name: kind === 'script' ? 'scripts.expense.setup' : 'tests/inputs.jsonl',
        needsAgent: kind === 'agent',
        ...(meta ? { meta } : {}),
        cases: () =>
          cases.map((c): TestCase => ({
            id: c.id,
            kind,
            input: c.input ?? c.id,
            messages: [],
            source: { file: 'x', line: 1 },
          })),
      }));
      hooks.resolve.tap('test:scripted', () => ({
        id: 'keyword',
        connector: 'mock',
        run: async () => ({ content: '', text: '' }),
      }));
      hooks.execute.for(kind).tapPromise('test:scripted', async (tc, ctx) => {
        await new Promise((resolve) => setImmediate(resolve));
        const n = counters.get(tc.id) ?? 0;
        counters.set(tc.id, n + 1);
        const c = cases.find((x) => x.id === tc.id)!;
        return {
          run: ctx.run,
          status: 'passed',
          duration_ms: 12,
          assertions: [],
          metrics: {},
          ...c.runs[n % c.runs.length],
        } as Execution;
      });
    },
  };
}

async function render(
  plugins: AgentestPlugin[],
  runPlan = plan(),
  stream = Object.assign(new PassThrough(), { isTTY: false }),
  cases?: 'all' | 'failed',
) {
  let text = '';
  stream.on('data', (d) => (text += d));
  await createKernel({
    plugins: [
      ...plugins,
      verdictPlugin(),
      consoleReporter({ stream, outputs: ['out.jsonl'], ...(cases ? { cases } : {}) }),
    ],
  }).run(runPlan);
  return text;
}

test('agent layout: header, case lines, errors, grade, summary and banner', async () => {
  const text = await render([
    scripted('agent', [
      { id: 'T1', input: 'x'.repeat(80), runs: [{ status: 'passed' }] },
      {
        id: 'T2',
        input: { role: 'user', content: [{ type: 'text', text: 'from a part' }] },
        runs: [{ status: 'failed', error: 'output does not contain "y"' }],
      },
      { id: 'T3', runs: [{ status: 'passed', details: { grade: 'PARTIAL' } }] },
    ]),
  ]);
  assert.match(
    text,
    /^\n═{63}\n {2}Agent Test\n═{63}\nℹ Agent: keyword\nℹ Connector: mock\nℹ Input: tests\/inputs\.jsonl \(3 test cases\)\nℹ Timeout: 5m0s\nℹ Parallel: 1\n/,
  );
  assert.match(text, new RegExp(`► \\[T1\\] ${'x'.repeat(47)}\\.\\.\\. {2}PASSED \\(12ms\\)`));
  assert.match(text, /► \[T2\] from a part {2}FAILED \(12ms\)\n {2}└─ output does not contain "y"/);
  assert.match(text, /► \[T3\] T3 {2}PASSED \[PARTIAL\] \(12ms\)/);
  assert.match(text, / {2}Output: out\.jsonl\n═{63}\n {2}❌ TESTS FAILED\n═{63}\n$/);
});

test("cases: 'failed' prints only the cases that did not pass; the header, recap and summary are the same", async () => {
  const suite = () =>
    scripted('agent', [
      { id: 'T1', runs: [{ status: 'passed' }] },
      { id: 'T2', runs: [{ status: 'failed', error: 'output does not contain "y"' }] },
      { id: 'T3', runs: [{ status: 'error', error: 'agent down' }] },
      { id: 'T4', runs: [{ status: 'skipped' }] },
    ]);
  const all = await render([suite()]);
  const failed = await render([suite()], plan(), undefined, 'failed');
  const caseLines = (text: string) => text.split('\n').filter((line) => line.startsWith('► '));
  assert.deepEqual(
    caseLines(all).map((line) => line.split(' ')[1]),
    ['[T1]', '[T2]', '[T3]', '[T4]'],
  );
  assert.deepEqual(
    caseLines(failed),
    caseLines(all).filter((line) => /\[T[23]\]/.test(line)),
  );
  // Everything else (header, the failed cases' details, the recap, the summary) is what `all` prints;
  // the run's wall time aside.
  const without = (text: string, ids: string[]) =>
    text
      .split('\n')
      .filter((line) => !ids.some((id) => line.startsWith(`► [${id}]`)) && !line.startsWith('  Duration:'))
      .join('\n');
  assert.equal(without(failed, []), without(all, ['T1', 'T4']));
  assert.match(failed, /Failed Cases \(2\)/);
});

test('metrics, thresholds and the ship verdict', async () => {
  const text = await render(
    [scripted('agent', [{ id: 'T1', runs: [{ status: 'passed', metrics: { keyword_hit_rate: 0.6 } }] }])],
    plan({ thresholds: { keyword_hit_rate: 0.7, pass_rate: 0.9 } }),
  );
  assert.match(text, /✗ {2}Keyword Hit Rate {2}60\.0% {2}\(threshold ≥70\.0%\)/);
  assert.match(text, /✓ {2}Case Pass Rate {4}100\.0% {2}\(threshold ≥90\.0%\)/);
  assert.match(text, /VERDICT: DO NOT SHIP {2}\n {2}✗ Keyword Hit Rate 60\.0% < threshold 70\.0%/);
  assert.match(text, /❌ DO NOT SHIP/);
});

test('a run stopped early with every case that ran passing says so, not ALL TESTS PASSED (it exits 1)', async () => {
  const halting: AgentestPlugin = {
    name: 'test:budget',
    apply({ hooks, halt }) {
      hooks.report.tap('test:budget', (event) => {
        if (event.type === 'result') halt!('budget (--max-cost 0.01 reached)');
      });
    },
  };
  const text = await render([
    scripted('agent', [
      { id: 'T1', runs: [{ status: 'passed' }] },
      { id: 'T2', runs: [{ status: 'passed' }] },
    ]),
    halting,
  ]);
  assert.match(text, /⚠ Stopped early: budget \(--max-cost 0\.01 reached\); 1 case not run/);
  assert.match(text, /⚠ STOPPED EARLY: NOT EVERY CASE RAN\n═{63}\n$/);
  assert.doesNotMatch(text, /ALL TESTS PASSED/);
});

test('a thresholded metric the run did not measure is shown as not measured and does not decide', async () => {
  const text = await render(
    [scripted('agent', [{ id: 'T1', runs: [{ status: 'passed', metrics: {} }] }])],
    plan({ thresholds: { keyword_hit_rate: 0.7 } }),
  );
  assert.match(text, /\n {2}– {2}Keyword Hit Rate {2}not measured {2}\(threshold ≥70\.0%\)\n/);
  assert.match(text, /VERDICT: SHIP IT/);
});

test('on a TTY the progress line is drawn in place and cleared before each line', async () => {
  const stream = Object.assign(new PassThrough(), { isTTY: true });
  const text = await render(
    [
      scripted('agent', [
        { id: 'A', runs: [{}] },
        { id: 'B', runs: [{ status: 'failed', error: 'no' }] },
        { id: 'C', runs: [{}] },
      ]),
    ],
    plan(),
    stream,
  );
  assert.match(text, /\r\x1b\[2K.*\[1\/3\] 33\.3% · 0 failed · [\d.]+ cases\/s · ETA \d+s/);
  assert.match(text, /\[2\/3\] 66\.7% · 1 failed/);
});

test('the end of the output recaps the failed cases with their first reason', async () => {
  const text = await render([
    scripted('agent', [
      { id: 'T1', runs: [{ status: 'passed' }] },
      { id: 'T2', runs: [{ status: 'failed', error: 'output does not contain "y"\nsecond line' }] },
      { id: 'T3', runs: [{ status: 'timeout', error: 'timeout after 30s' }] },
    ]),
  ]);
  const recap = text.slice(text.indexOf('Failed Cases'));
  assert.match(
    recap,
    /^Failed Cases \(2\)\n─{63}\n {2}✗ \[T2\] failed: output does not contain "y"\n {2}✗ \[T3\] timeout: timeout after 30s\n─{63}\n {2}Summary/,
  );
});

test('with several runs per case: the run pass rate and the case pass rate have their own names; progress counts runs and names the cases in flight', async () => {
  const stream = Object.assign(new PassThrough(), { isTTY: true });
  const text = await render(
    [
      scripted('agent', [
        { id: 'A', runs: [{}, { status: 'failed', error: 'flaky' }] },
        { id: 'B', runs: [{}] },
      ]),
    ],
    plan({ runs: 2, parallel: 2, thresholds: { pass_rate: 0.1 } }),
    stream,
  );
  assert.match(text, /\n {2}Run Pass Rate: 75\.0%\n/);
  assert.match(text, /✓ {2}Case Pass Rate +50\.0% {2}\(threshold ≥10\.0%\)/);
  assert.doesNotMatch(text, /\n {2}Pass Rate:/);
  assert.match(text, /\[\d\/4 runs\] [\d.]+% · \d failed · [\d.]+ runs\/s · ETA (\d+s|–) · running (A|B)/);
});

test('with several runs per case, each run of a dynamic case shows its own conversation line', async () => {
  const conversation = (turns: number, reached: boolean) => ({
    dynamic: {
      simulator: 'shopper',
      max_turns: 4,
      total_turns: turns,
      end_reason: reached ? 'completed' : 'max_turns',
      turns: [],
      checkpoints: [{ id: 'confirm', required: true, reached, ...(reached ? { reached_at_turn: turns } : {}) }],
      transcript: [],
    },
  });
  const text = await render(
    [
      scripted('agent', [
        {
          id: 'D1',
          runs: [
            { status: 'passed', details: conversation(2, true) },
            { status: 'failed', error: 'max turns (4) exceeded', details: conversation(4, false) },
          ],
        },
      ]),
    ],
    plan({ runs: 2 }),
  );
  assert.match(
    text,
    /Run 1: PASSED[^\n]*\n\s+└─ 2 turns \(max 4\), every required checkpoint reached · checkpoints 1\/1: confirm@2\n/,
  );
  assert.match(text, /Run 2: FAILED[\s\S]*?└─ 4 turns \(max 4\), max turns reached · checkpoints 0\/1: confirm ✗\n/);
});

test('a run whose every case was skipped says no case ran, not ALL TESTS PASSED', async () => {
  const text = await render([
    scripted('agent', [
      { id: 'T1', runs: [{ status: 'skipped' }] },
      { id: 'T2', runs: [{ status: 'skipped' }] },
    ]),
  ]);
  assert.match(text, /⚠ NO CASE RAN: EVERY SELECTED CASE WAS SKIPPED\n═{63}\n$/);
  assert.doesNotMatch(text, /ALL TESTS PASSED/);
});
