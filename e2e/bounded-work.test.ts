/**
 * Bounded work on hostile patterns: a catastrophic-backtracking regex, or an output of 20 MB, must
 * not hang a run or blow up its outputs; the case reports why it failed.
 */
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startFakeLlm, type FakeLlm } from '@agentest/fake-llm';
import type { Assertion, AssertInput, RunPlan, TestCase } from '@agentest/kernel';
import { builtinAssertion, runAssertion } from '@agentest/plugin-assert';
import { runCli, stackFrames } from './helpers/cli.js';
import { HANG_MS } from './helpers/deadlines.js';
import { readEvents, resultsById } from './helpers/events.js';
import { connectorConfig, workspace, writeCases, writeJson } from './helpers/workspace.js';

const MB20 = 20_000_000;
const EVIL = '(a+)+$';
const EVIL_SUBJECT = `${'a'.repeat(40_000)}!`;

const testCase: TestCase = {
  id: 'big',
  kind: 'agent',
  input: 'x',
  messages: [{ role: 'user', content: 'x' }],
  source: { file: 'big.jsonl', line: 1 },
};
const plan: RunPlan = {
  input: { input: 'big.jsonl', cwd: '/' },
  runs: 1,
  parallel: 1,
  failFast: false,
  env: {},
  verbose: false,
};
function judge(assertion: Assertion, output: unknown) {
  const input: AssertInput = {
    output,
    testCase,
    execution: { run: 1, status: 'passed', duration_ms: 1, output, assertions: [], metrics: {} },
    plan,
    signal: new AbortController().signal,
  };
  const started = performance.now();
  const outcome = runAssertion(builtinAssertion(assertion.type)!, assertion, input);
  return { outcome, ms: performance.now() - started };
}

describe('bounded work, programmatically (plugin-assert)', () => {
  const text20 = 'x'.repeat(MB20 - 6) + 'needle';
  const json20 = JSON.stringify({
    items: Array.from({ length: 180_000 }, (_, i) => ({ i, name: `item${i}`, tags: ['a', 'b'] })),
    last: 'end',
  }).padEnd(MB20, ' ');

  test('a catastrophic-backtracking regex runs in linear time (RE2) and reports a plain mismatch', () => {
    const { outcome, ms } = judge({ type: 'regex', value: EVIL }, EVIL_SUBJECT);
    assert.equal(outcome.pass, false);
    assert.match(outcome.message!, /does not match pattern/);
    // Backtracking would take longer than the age of the universe; linear time takes milliseconds.
    assert.ok(ms < HANG_MS, `${ms} ms`);
  });

  for (const [name, assertion, output, pass] of [
    ['contains on 20 MB of text', { type: 'contains', value: 'needle' }, text20, true],
    ['not_contains on 20 MB of text', { type: 'not_contains', value: 'needle' }, text20, false],
    ['equals on 20 MB of text', { type: 'equals', value: 'short' }, text20, false],
    ['regex on 20 MB of text', { type: 'regex', value: '(x+x+)+y' }, text20, false],
    ['json_path on 20 MB of text that is not JSON', { type: 'json_path', path: '$.a', value: 1 }, text20, false],
    ['json_path on 20 MB of JSON', { type: 'json_path', path: '$.last', value: 'end' }, json20, true],
    [
      'json_path with a recursive descent on 20 MB of JSON',
      { type: 'json_path', path: '$..name', value: 'nope' },
      json20,
      false,
    ],
    ['equals on 20 MB of JSON', { type: 'equals', value: { items: [] } }, json20, false],
  ] as const) {
    test(`${name}: answers, with a short message`, () => {
      const { outcome, ms } = judge(assertion as Assertion, output);
      assert.equal(outcome.pass, pass, outcome.message);
      assert.ok(ms < HANG_MS, `${ms} ms`);
      const reason = outcome.message ?? outcome.error ?? '';
      assert.ok(reason.length < 2_000, `message of ${reason.length} chars`);
    });
  }

  test('an assertion result does not carry another full copy of a huge output as "actual"', () => {
    for (const type of ['contains', 'regex', 'equals', 'json_path', 'not_contains']) {
      const { outcome } = judge({ type, value: 'zz', path: '$.a' }, text20);
      const size =
        typeof outcome.actual === 'string' ? outcome.actual.length : JSON.stringify(outcome.actual ?? null).length;
      assert.ok(size < 100_000, `${type}: actual holds ${size} chars`);
    }
  });
});

describe('bounded work through the CLI', () => {
  const dir = workspace('bounded');
  let llm: FakeLlm;
  before(async () => {
    llm = await startFakeLlm({
      echo: true,
      record: false,
      rules: [{ match: '^huge\\b', fault: { type: 'huge', bytes: MB20 } }],
    });
    // Above the 10 MB default reply cap: this test is about what assertions do with a huge output.
    writeJson(dir, 'agentest.config.json', connectorConfig(llm.url, { max_reply_bytes: 3 * MB20 }));
  });
  after(() => llm?.close());

  test('a catastrophic regex and a 20 MB reply with five assertions finish; each case says why it failed', async () => {
    writeCases(dir, 'cases.jsonl', [
      { id: 'evil-regex', input: EVIL_SUBJECT, assert: { type: 'regex', value: EVIL } },
      {
        id: 'huge',
        input: 'huge reply please',
        assert: [
          { type: 'contains', value: 'xxxx' },
          { type: 'not_contains', value: 'needle' },
          { type: 'regex', value: '^x+$' },
          { type: 'equals', value: 'short' },
          { type: 'json_path', path: '$.a', value: 1 },
        ],
      },
    ]);
    const run = await runCli(['test', '-i', 'cases.jsonl', '-n', 'bot', '-o', 'out.jsonl'], { cwd: dir });
    assert.equal(run.code, 1, run.stderr);
    assert.deepEqual(stackFrames(run.stderr), []);
    const byId = resultsById(readEvents(join(dir, 'out.jsonl')), ['evil-regex', 'huge']);
    assert.equal(byId.get('evil-regex')!.status, 'failed');
    assert.match(byId.get('evil-regex')!.error!, /does not match pattern '\(a\+\)\+\$'/);
    const huge = byId.get('huge')!;
    // json_path cannot read 20 MB of text that is not JSON: the case is an error, with every reason.
    assert.equal(huge.status, 'error');
    assert.match(huge.error!, /expected "short"/);
    assert.match(huge.error!, /not valid JSON/);
    assert.ok(huge.error!.length < 4_000, `the reason is readable (${huge.error!.length} chars)`);
    // Outputs: the reply appears a bounded number of times, not once per assertion.
    const size = statSync(join(dir, 'out.jsonl')).size;
    assert.ok(size < 6 * MB20, `out.jsonl is ${(size / 1e6).toFixed(0)} MB`);
  });

  test("a reply past the connector's cap (10 MB by default) is an error saying how to raise it; the run goes on", async () => {
    const capped = workspace('reply-cap');
    writeJson(capped, 'agentest.config.json', connectorConfig(llm.url));
    writeCases(capped, 'cases.jsonl', [
      { id: 'huge', input: 'huge reply please', assert: { type: 'contains', value: 'xxxx' } },
      { id: 'small', input: 'hello', assert: { type: 'contains', value: 'hello' } },
    ]);
    const run = await runCli(['test', '-i', 'cases.jsonl', '-n', 'bot', '-o', 'out.jsonl'], { cwd: capped });
    assert.equal(run.code, 1, run.stderr);
    const byId = resultsById(readEvents(join(capped, 'out.jsonl')), ['huge', 'small']);
    assert.equal(byId.get('huge')!.status, 'error');
    assert.match(
      byId.get('huge')!.error!,
      /reply too large: more than 10 MB, so reading stopped; raise max_reply_bytes in the connector/,
    );
    assert.equal(byId.get('small')!.status, 'passed');
  });

  test('--run with a catastrophic pattern cannot hang the run (ids are matched in linear time)', async () => {
    // Backtracking over 64 letters would take centuries, so only a linear-time matcher lets the CLI exit.
    writeCases(dir, 'ids.jsonl', [
      { id: `${'a'.repeat(64)}!`, input: 'hi' },
      { id: 'aaa', input: 'hi' },
    ]);
    const run = await runCli(['test', '-i', 'ids.jsonl', '-n', 'echo', '--run', EVIL, '-o', 'ids-out.jsonl'], {
      cwd: dir,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual([...resultsById(readEvents(join(dir, 'ids-out.jsonl'))).keys()], ['aaa']);
  });
});
