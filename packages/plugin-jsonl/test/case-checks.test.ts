import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel, type AgentestError, type AgentestPlugin, type RunPlan } from '@agentest/kernel';
import jsonlPlugin, { toJsonlCase, type JsonlPluginOptions } from '../src/index.js';
import { loadText, scratch } from './helpers.js';

/** Loads `lines` and expects INPUT_INVALID with a message matching `message`. */
async function refused(lines: string[], message: RegExp, options?: JsonlPluginOptions): Promise<void> {
  await assert.rejects(loadText(lines.join('\n'), options), (error: AgentestError) => {
    assert.equal(error.code, 'INPUT_INVALID');
    assert.match(error.message, message);
    return true;
  });
}

test('a misspelt key is an error at file:line with a did-you-mean, not a case that checks nothing', async () => {
  await refused(
    ['{"id": "A", "input": "x"}', '{"id": "B001", "input": "hello", "expect": {"a": 1}}'],
    /^cases\.jsonl:2: unknown field "expect" \(did you mean "expected"\?\) — put custom data under "metadata"/,
  );
  await refused(
    ['{"id": "B002", "input": "hello", "asert": {"type": "contains", "value": "x"}}'],
    /^cases\.jsonl:1: unknown field "asert" \(did you mean "assert"\?\)/,
  );
  await refused(
    ['{"id": "B003", "input": "hello", "labels": ["smoke"]}'],
    /^cases\.jsonl:1: unknown field "labels".*list the key in the jsonl\.extraKeys option/,
  );
});

test("Yao's dynamic-mode keys make a dynamic case; simulator or max_turns without checkpoints is refused, not run as a static case", async () => {
  const cases = await loadText(
    JSON.stringify({
      id: 'D1',
      input: 'hi',
      simulator: { use: 'agents:sim', options: { metadata: { persona: 'p' }, connector: 'c' } },
      checkpoints: [
        { id: 'cp', assert: { type: 'contains', value: 'x' } },
        { id: 'end', after: ['cp'], required: false },
      ],
      max_turns: 3,
    }),
  );
  assert.equal(cases[0]!.kind, 'dynamic');
  assert.deepEqual(cases[0]!.checkpoints, [
    { id: 'cp', assert: [{ type: 'contains', value: 'x' }], after: [], required: true },
    { id: 'end', assert: [], after: ['cp'], required: false },
  ]);
  assert.deepEqual((cases[0]!.data as { dynamic: unknown }).dynamic, {
    simulator: { use: 'sim', connector: 'c', metadata: { persona: 'p' } },
    max_turns: 3,
  });
  for (const key of ['simulator', 'max_turns']) {
    await refused(
      [JSON.stringify({ id: 'D1', input: 'hi', [key]: key === 'max_turns' ? 3 : { use: 'sim' } })],
      new RegExp(`^cases\\.jsonl:1: field "${key}" without "checkpoints"`),
    );
  }
});

test('a dynamic case whose checkpoints are all optional is refused: it would pass on the first reply, checking nothing', async () => {
  await refused(
    [
      JSON.stringify({
        id: 'D1',
        input: 'hi',
        simulator: { use: 'sim' },
        checkpoints: [{ id: 'upsell', required: false, assert: { type: 'contains', value: 'pastry' } }],
      }),
    ],
    /^cases\.jsonl:1: every checkpoint is optional \("required": false\): the case would pass on the agent's first reply without checking anything/,
  );
});

test('every case field, and the keys listed in extraKeys, load', async () => {
  const line = {
    id: 'F1',
    name: 'n',
    input: 'x',
    expected: 'x',
    assert: 'contains',
    user: 'u',
    team: 't',
    metadata: { a: 1 },
    options: {},
    skip: false,
    todo: false,
    timeout: '1s',
    tags: ['smoke', ' billing'],
    before: 'a.B',
    after: 'a.A',
  };
  const [loaded] = await loadText(JSON.stringify(line));
  assert.deepEqual(loaded!.tags, ['smoke', 'billing']);
  assert.deepEqual(toJsonlCase(loaded!).tags, ['smoke', 'billing'], '--dry-run writes the tags back');
  const [extra] = await loadText('{"id": "E1", "input": "x", "labels": ["smoke"], "simulator": {"use": "sim"}}', {
    extraKeys: ['labels', 'simulator'],
  });
  assert.equal(extra!.id, 'E1');
  assert.equal(extra!.data, undefined, 'listed extra keys are ignored, not handed to an executor');
});

/** A JSON object nested `levels` deep: {"a":{"a":…{}}}. */
function nested(levels: number): string {
  return '{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1);
}

test('metadata or expected nested 100,000 levels deep is refused at file:line, naming the field', async () => {
  await refused(
    [`{"id": "N1", "input": "x", "metadata": ${nested(100_000)}}`],
    /^cases\.jsonl:1: field "metadata" nests more than 1000 levels deep — flatten the value, or raise the jsonl\.maxDepth option/,
  );
  await refused(
    [
      '{"id": "ok", "input": "x"}',
      `{"id": "N2", "input": "x", "expected": [${'['.repeat(100_000)}${']'.repeat(100_000)}]}`,
    ],
    /^cases\.jsonl:2: field "expected" nests more than 1000 levels deep/,
  );
});

test('the nesting limit counts the case object as level 1, ignores brackets in strings, and is configurable', async () => {
  // The case is level 1, so metadata may nest 999 levels under the default.
  assert.equal((await loadText(`{"id": "N3", "input": "x", "metadata": ${nested(999)}}`)).length, 1);
  await refused(
    [`{"id": "N4", "input": "x", "metadata": ${nested(1000)}}`],
    /field "metadata" nests more than 1000 levels/,
  );
  const brackets = JSON.stringify({ id: 'N5', input: '{['.repeat(5000), expected: '"\\"{'.repeat(2000) });
  assert.equal((await loadText(brackets)).length, 1);
  await refused(
    [`{"id": "N6", "input": "x", "metadata": ${nested(60)}}`],
    /field "metadata" nests more than 50 levels/,
    { maxDepth: 50 },
  );
});

test('a bad key or a deep line stops the run before any agent call', async () => {
  for (const line of [
    '{"id": "B1", "input": "x", "expect": "x"}',
    `{"id": "N1", "input": "x", "metadata": ${nested(5000)}}`,
  ]) {
    const dir = scratch({ 'inputs.jsonl': `{"id": "first", "input": "hello"}\n${line}\n` });
    let calls = 0;
    const agent: AgentestPlugin = {
      name: 'test:agent',
      apply({ hooks }) {
        hooks.resolve.tapPromise('test:agent', async () => ({
          id: 'a',
          run: async () => ({ content: (calls++, 'x') }),
        }));
        hooks.execute.for('agent').tapPromise('test:agent', async (c, ctx) => {
          await ctx.agent!.run(c.messages, ctx.context, ctx.signal);
          return { run: ctx.run, status: 'passed', duration_ms: 0, assertions: [], metrics: {} };
        });
      },
    };
    const plan: RunPlan = {
      input: { input: 'inputs.jsonl', cwd: dir },
      runs: 1,
      parallel: 1,
      failFast: false,
      env: {},
      verbose: false,
    };
    await assert.rejects(
      createKernel({ plugins: [jsonlPlugin(), agent] }).run(plan),
      (error: AgentestError) => error.code === 'INPUT_INVALID' && /inputs\.jsonl:2: /.test(error.message),
    );
    assert.equal(calls, 0);
  }
});

test('a static case with no assert and no expected is marked unasserted (it passes as in Yao, with a warning)', async () => {
  const cases = await loadText(
    [
      '{"id": "bare", "input": "x"}',
      '{"id": "null", "input": "x", "assert": null}',
      '{"id": "empty", "input": "x", "assert": []}',
      '{"id": "checked", "input": "x", "assert": {"type": "contains", "value": "x"}}',
      '{"id": "expected", "input": "x", "expected": "x"}',
      '{"id": "dyn", "input": "x", "simulator": {"use": "agents:sim"}, "checkpoints": [{"id": "cp", "assert": {"type": "contains", "value": "x"}}]}',
    ].join('\n'),
  );
  assert.deepEqual(
    cases.map((c) => [c.id, c.unasserted === true]),
    [
      ['bare', true],
      ['null', true],
      ['empty', true],
      ['checked', false],
      ['expected', false],
      ['dyn', false],
    ],
  );
});
