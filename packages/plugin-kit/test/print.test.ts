import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import {
  displayWidth,
  formatCaseDetail,
  formatCaseLine,
  formatMetrics,
  formatShipVerdict,
  formatSuiteHeader,
  kitIdWidth,
  useColor,
} from '../src/index.js';

const result = {
  case_id: 'C001',
  query: 'q',
  elapsed_ms: 151,
  error: null,
  structure_ok: true,
  intent_matched: true,
  keyword_hits: ['a'],
  keyword_hit_rate: 0.5,
  quality_score: 5,
  failure_details: ['intent: expected x, got y'],
};
const env = { ...process.env };
afterEach(() => {
  process.env = { ...env };
});

test('the case line keeps agentest-kit layout and aligns CJK names by columns', () => {
  assert.equal(
    formatCaseLine(result, { id: 'C001', name: 'C001' }, 'PASS'),
    `   PASS  C001    C001${' '.repeat(36)}  151ms`,
  );
  const cjk = formatCaseLine(result, { id: 'tests/a.test.ts#退款场景', name: '退款场景' }, 'PARTIAL');
  assert.equal(cjk, `   PART  a.test.ts  退款场景${' '.repeat(32)}  151ms`);
  assert.equal(displayWidth('退款 ok'), 7);
  assert.match(formatCaseLine(result, { id: 'T', name: 'x' }, 'SKIP'), /  —$/);
});

test('test-function rows line up with cases.json rows: the id column is as wide as the suite needs', () => {
  const tests = [
    { id: 'C001', name: 'C001' },
    { id: 'tests/advanced.test.ts#退款场景', name: '退款场景' },
  ];
  const width = kitIdWidth(tests);
  assert.equal(width, 16);
  assert.deepEqual(
    tests.map((tc) => formatCaseLine(result, tc, 'PASS', false, width)),
    [
      `   PASS  C001              C001${' '.repeat(36)}  151ms`,
      `   PASS  advanced.test.ts  退款场景${' '.repeat(32)}  151ms`,
    ],
  );
  assert.equal(kitIdWidth([{ id: 'C1' }]), 6, "agentest-kit's own width when every id fits");
});

test('case details', () => {
  assert.deepEqual(formatCaseDetail(result, { expected_keywords: ['a', 'b'] }), [
    '       ● intent: expected x, got y',
    '       50.0% keywords: a  b',
  ]);
  assert.deepEqual(formatCaseDetail({ ...result, error: 'boom' }, { expected_keywords: [] }), ['       ● error: boom']);
  assert.deepEqual(formatCaseDetail({ ...result, error: '' }, { expected_keywords: [] }), [
    '       ● error: (empty message)',
  ]);
  // agentest-kit prints `● error: <msg>` under a 7-space indent and a message's later lines as they are, from the
  // left margin; so does this layout (docs/kit.md).
  assert.deepEqual(formatCaseDetail({ ...result, error: 'expected x\n  got y' }, { expected_keywords: [] }), [
    '       ● error: expected x\n  got y',
  ]);
  assert.deepEqual(formatCaseDetail({ ...result, failure_details: ['first\nsecond'] }, { expected_keywords: [] }), [
    '       ● first\nsecond',
    '       50.0% keywords: a',
  ]);
});

test('header, metrics and verdict', () => {
  assert.equal(formatSuiteHeader('run', 'http://x'), `\n RUN   http://x\n${'─'.repeat(68)}`);
  assert.equal(
    formatSuiteHeader('support'),
    `\n SUPPORT   \n${'─'.repeat(68)}`,
    'the two spaces before the address are printed without one, as agentest-kit does',
  );
  const metrics = {
    total: 3,
    keyword_hit_rate: null,
    intent_match_rate: 0.5,
    avg_quality_score: 4,
    avg_latency_ms: 120.4,
    pass_rate: 0.67,
    passed: 1,
    partial: 1,
    failed: 1,
  };
  // agentest-kit pads the labels to 18 columns ('Keyword Hit Rate  ', 'Intent Match Rate ') before a space.
  assert.deepEqual(formatMetrics(metrics, { intent_match_rate: 0.8, latency_ms: 100 }), [
    '\n  Metrics',
    `  ${'─'.repeat(50)}`,
    '  –  Keyword Hit Rate   N/A',
    '  ✗  Intent Match Rate  50.0%  (threshold ≥80.0%)',
    '  ✗  Avg Latency        120ms  (threshold ≤100ms)',
    '\n  Avg Score 4.00/5   Avg Latency 120ms   Active 3',
  ]);
  assert.equal(
    formatMetrics({ ...metrics, avg_quality_score: null, avg_latency_ms: null }).at(-1),
    '\n  Avg Score N/A   Avg Latency N/A   Active 3',
    'what no case measured is N/A, without a unit',
  );
  assert.equal(
    formatMetrics(metrics, { keyword_hit_rate: 0.7 })[2],
    '  –  Keyword Hit Rate   N/A  (not measured; threshold ≥70.0%)',
  );
  assert.equal(
    formatMetrics({ ...metrics, keyword_hit_rate: 0.625 }, { keyword_hit_rate: 0.6 })[2],
    '  ✓  Keyword Hit Rate   62.5%  (threshold ≥60.0%)',
  );
  assert.deepEqual(formatShipVerdict({ can_ship: false, issues: ['a'] }), [
    '',
    '  VERDICT: DO NOT SHIP  ',
    '  ✗ a',
    '',
  ]);
});

test('colour only on a terminal, never with NO_COLOR, always with FORCE_COLOR', () => {
  delete process.env.NO_COLOR;
  delete process.env.FORCE_COLOR;
  assert.equal(useColor({ isTTY: true }), true);
  assert.equal(useColor({ isTTY: false }), false);
  process.env.NO_COLOR = '1';
  assert.equal(useColor({ isTTY: true }), false);
  delete process.env.NO_COLOR;
  process.env.FORCE_COLOR = '1';
  assert.equal(useColor({ isTTY: false }), true);
  assert.match(
    formatShipVerdict({ can_ship: true, issues: [] })[1]!,
    /^\x1b\[42m\x1b\[1m  VERDICT: SHIP IT  \x1b\[0m$/,
  );
});
