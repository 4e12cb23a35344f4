import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { createKernel, type AgentestPlugin, type Execution, type RunPlan, type TestCase } from '@agentest/kernel';
import { verdictPlugin } from '@agentest/report';
import consoleReporter from '@agentest/reporter-console';
import { registerKitLayout } from '../src/console/kit-layout.js';
import { kitIdWidth } from '../src/console/kit-format.js';

/** An evaluation as an agentest-kit adapter returns it (the run's output for a kit agent case). */
const evaluation = (fields: Record<string, unknown>) => ({
  error: null,
  structure_ok: true,
  intent_matched: true,
  keyword_hits: [],
  keyword_hit_rate: null,
  quality_score: 5,
  failure_details: [],
  ...fields,
});

interface KitCase {
  tc: Partial<TestCase> & { id: string };
  run?: Partial<Execution>;
}

/** A kit suite (`meta.mode: 'kit'`) whose cases end as scripted: PASS, PARTIAL, FAIL, SKIP, TODO. */
const CASES: KitCase[] = [
  {
    tc: { id: 'C001', metadata: { expected_keywords: ['order_tracking', '物流单号'] } },
    run: {
      status: 'passed',
      details: { grade: 'PASS' },
      metrics: { keyword_hit_rate: 1, intent_match_rate: 1, quality_score: 5, latency_ms: 151 },
      output: evaluation({ keyword_hits: ['order_tracking', '物流单号'], keyword_hit_rate: 1 }),
    },
  },
  {
    tc: { id: 'C002' },
    run: {
      status: 'passed',
      details: { grade: 'PARTIAL' },
      metrics: { intent_match_rate: 0, quality_score: 3, latency_ms: 40 },
      output: evaluation({ intent_matched: false, failure_details: ['intent: expected technical_support, got none'] }),
    },
  },
  {
    tc: { id: 'C003', metadata: { expected_keywords: ['refund_request', '退款'] } },
    run: {
      status: 'failed',
      error: 'structure check failed: code 503',
      details: { grade: 'FAIL' },
      metrics: { keyword_hit_rate: 0.5, intent_match_rate: 0, quality_score: 0, latency_ms: 56 },
      output: evaluation({
        structure_ok: false,
        keyword_hits: ['退款'],
        keyword_hit_rate: 0.5,
        failure_details: ['backend answered code 503'],
      }),
    },
  },
  {
    tc: { id: 'tests/a.test.ts#多轮退款', name: '多轮退款', kind: 'spec' },
    run: { status: 'failed', error: 'expected "refund" to be "order"', duration_ms: 88 },
  },
  { tc: { id: 'C004', skip: 'not built yet' } },
  { tc: { id: 'C005', todo: true } },
];

/** A kit suite, and plugin-kit's console layout registered as its plugin registers it (unless `layout: false`). */
function kitSuite(cases: KitCase[], layout = true): AgentestPlugin {
  return {
    name: 'test:kit',
    apply({ hooks }) {
      if (layout) registerKitLayout({ hooks }, 'test:kit');
      hooks.load.tap('test:kit', () => ({
        name: '.',
        needsAgent: true,
        meta: {
          mode: 'kit',
          files: ['cases.json'],
          idWidth: kitIdWidth(cases.map(({ tc }) => ({ id: tc.id, ...(tc.name ? { name: tc.name } : {}) }))),
        },
        cases: () =>
          cases.map(({ tc }): TestCase => ({
            kind: 'agent',
            input: tc.id,
            messages: [],
            source: { file: 'cases.json' },
            ...tc,
          })),
      }));
      hooks.resolve.tap('test:kit', () => ({
        id: 'support',
        connector: '',
        run: async () => ({ content: '', text: '' }),
      }));
      for (const kind of ['agent', 'spec']) {
        hooks.execute.for(kind).tapPromise('test:kit', async (tc, ctx) => {
          // A turn of the event loop per case lets the printer flush and the progress line be drawn.
          await new Promise((resolve) => setImmediate(resolve));
          const c = cases.find((x) => x.tc.id === tc.id)!;
          return {
            run: ctx.run,
            status: 'passed',
            duration_ms: 60,
            assertions: [],
            metrics: {},
            ...c.run,
          } as Execution;
        });
      }
    },
  };
}

const plan: RunPlan = {
  input: { input: '.', cwd: process.cwd() },
  runs: 1,
  parallel: 1,
  failFast: false,
  env: {},
  verbose: false,
  thresholds: { keyword_hit_rate: 0.7, intent_match_rate: 0.8 },
};

async function render(options: { color?: boolean; tty?: boolean; cases?: KitCase[]; layout?: boolean } = {}) {
  const stream = Object.assign(new PassThrough(), { isTTY: options.tty ?? false });
  let text = '';
  stream.on('data', (d) => (text += d));
  const reporter = consoleReporter({
    stream,
    outputs: ['output-1.jsonl'],
    ...(options.color !== undefined ? { color: options.color } : {}),
  });
  await createKernel({ plugins: [kitSuite(options.cases ?? CASES, options.layout), verdictPlugin(), reporter] }).run(
    plan,
  );
  return text;
}

test('kit suites print agentest-kit terminal format: header, badges, details, Tests line, metrics and verdict', async () => {
  const text = await render();
  const rule = '─'.repeat(68);
  assert.equal(
    text,
    [
      '',
      // agentest-kit prints the two spaces before the API address even when there is none.
      ' SUPPORT   ',
      rule,
      // The id column is as wide as the suite's widest row id, so the test function's row lines up.
      `   PASS  C001       C001${' '.repeat(36)}  151ms`,
      `   PART  C002       C002${' '.repeat(36)}  40ms`,
      '       ● intent: expected technical_support, got none',
      `   FAIL  C003       C003${' '.repeat(36)}  56ms`,
      '       ● structure check failed',
      '       ● backend answered code 503',
      '       50.0% keywords: refund_request  退款',
      `   FAIL  a.test.ts  多轮退款${' '.repeat(32)}  88ms`,
      '       ● error: expected "refund" to be "order"',
      `   SKIP  C004       C004${' '.repeat(36)}  —`,
      `   TODO  C005       C005${' '.repeat(36)}  —`,
      rule,
      '',
      '  Tests:  1 passed | 1 partial | 2 failed | 1 skipped | 1 todo  (4 active / 6 total)',
      '',
      '  Metrics',
      `  ${'─'.repeat(50)}`,
      // agentest-kit's labels are 18 columns wide, then a space.
      '  ✓  Keyword Hit Rate   75.0%  (threshold ≥70.0%)',
      '  ✗  Intent Match Rate  33.3%  (threshold ≥80.0%)',
      '  ✗  Pass Rate          50.0%  (threshold ≥100.0%)',
      '',
      '  Avg Score 2.67/5   Avg Latency 82ms   Active 4',
      '',
      '  VERDICT: DO NOT SHIP  ',
      '  ✗ Pass Rate 50.0% < threshold 100.0%',
      '  ✗ Intent Match Rate 33.3% < threshold 80.0%',
      '',
      '  Output: output-1.jsonl',
      '',
    ].join('\n'),
  );
  assert.doesNotMatch(text, /Agent Test|ALL TESTS PASSED|TESTS FAILED/);
});

test('a passing kit suite ships, and a failed grade never reads as a pass', async () => {
  const text = await render({
    cases: [
      CASES[0]!,
      { tc: { id: 'C009' }, run: { status: 'error', error: 'adapter threw: boom', details: { grade: 'PASS' } } },
    ],
  });
  assert.match(text, /  FAIL  C009 {4}C009 +\d+ms\n {7}● error: adapter threw: boom\n/);
  assert.match(text, /\n SUPPORT {3}\n/);
  const ok = await render({ cases: [CASES[0]!] });
  assert.match(ok, /\n {2}Tests: {2}1 passed {2}\(1 active \/ 1 total\)\n/);
  assert.match(ok, /\n {2}VERDICT: SHIP IT {2}\n/);
});

test('colour uses the kit codes only when the reporter colours; the TTY progress line is cleared before each line', async () => {
  const plain = await render({ color: false });
  assert.doesNotMatch(plain, /\x1b\[/);
  const coloured = await render({ color: true, tty: true });
  assert.match(coloured, /\x1b\[32m\x1b\[1m PASS \x1b\[0m/);
  assert.match(coloured, /\x1b\[41m\x1b\[1m {2}VERDICT: DO NOT SHIP {2}\x1b\[0m/);
  assert.match(coloured, /\r\x1b\[2K/);
  assert.match(coloured, /\[\d+\/6\] [\d.]+% · \d+ failed/);
});

test('the console knows no suite kind: without the kit layout registered, a kit suite prints as an agent suite', async () => {
  const text = await render({ layout: false });
  assert.match(text, /Agent Test/);
  assert.doesNotMatch(text, / PASS {2}C001/);
});
