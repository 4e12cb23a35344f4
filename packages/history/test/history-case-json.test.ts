import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { CaseResult } from '@agentest/kernel';
import { historyCase, type HistoryCase } from '../src/index.js';
import { historyCaseJson } from '../src/history-case-json.js';

const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('', 'a"b\\c', '\u2028', '\ud800'));
const number = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(0, -0, NaN, Infinity, -Infinity, 1e21, 1e-7, 0.1 + 0.2),
);
const status = fc.oneof(fc.constantFrom('passed', 'failed', 'error', 'timeout', 'skipped'), text);

const run = fc.record(
  { status, duration_ms: number, tokens: number, cost: number },
  { requiredKeys: ['status'] },
) as fc.Arbitrary<HistoryCase['runs'][number]>;

const entry = fc.record(
  {
    id: text,
    name: text,
    status,
    duration_ms: number,
    runs: fc.array(run, { maxLength: 4 }),
    message: text,
  },
  { requiredKeys: ['id', 'status', 'duration_ms', 'runs'] },
) as fc.Arbitrary<HistoryCase>;

/** Entries as other code might hand them over: other keys and orders, `undefined`s, values of other types. */
const unusual = fc.oneof(
  entry.map((e) => ({ ...e, extra: 1 })),
  entry.map((e) => ({ runs: e.runs, id: e.id, status: e.status, duration_ms: e.duration_ms })),
  entry.map((e) => ({ ...e, name: undefined })),
  entry.map((e) => ({ ...e, duration_ms: String(e.duration_ms) })),
  entry.map((e) => ({ ...e, runs: [...e.runs, { status: 'passed', duration_ms: undefined }] })),
  entry.map((e) => ({ ...e, runs: [{ duration_ms: 1, status: 'passed' }] })),
  entry.map((e) => ({ ...e, runs: [{ status: 'passed', tokens: '3' }] })),
  entry.map((e) => ({ ...e, runs: [null] })),
  entry.map((e) => ({ ...e, runs: Object.assign([], { 1: { status: 'passed' } }) })),
  entry.map((e) => Object.assign(Object.create({ inherited: true }) as object, e)),
  entry.map((e) => ({ ...e, toJSON: () => 'replaced' })),
  entry.map((e) => Object.defineProperty({ ...e }, 'toJSON', { value: () => 'hidden', enumerable: false })),
  entry.map((e) => ({ ...e, runs: Object.assign([...e.runs], { toJSON: () => [] }) })),
) as fc.Arbitrary<HistoryCase>;

test('an entry is written byte for byte as JSON.stringify writes it, whatever it holds', () => {
  fc.assert(
    fc.property(fc.oneof(entry, unusual), (e) => {
      assert.equal(historyCaseJson(e), JSON.stringify(e));
    }),
    { numRuns: 2000 },
  );
});

test('the entries historyCase makes are written as JSON.stringify writes them', () => {
  const result = {
    id: 'C1',
    name: 'the "first" case',
    kind: 'agent',
    input: 'x',
    source: { file: 'cases.jsonl' },
    status: 'failed',
    duration_ms: 12.34,
    error: 'expected "ok"',
    assertions: [],
    metrics: {},
    runs: [
      {
        run: 1,
        status: 'failed',
        duration_ms: 12.34,
        assertions: [],
        metrics: { cost_usd: 0.002 },
        usage: { prompt_tokens: 3, completion_tokens: 4 },
      },
    ],
  } as unknown as CaseResult;
  const made = historyCase(result);
  assert.equal(historyCaseJson(made), JSON.stringify(made));
  assert.equal(
    historyCaseJson(made),
    '{"id":"C1","name":"the \\"first\\" case","status":"failed","duration_ms":12.34,' +
      '"runs":[{"status":"failed","duration_ms":12.34,"tokens":7,"cost":0.002}],"message":"expected \\"ok\\""}',
  );
});
