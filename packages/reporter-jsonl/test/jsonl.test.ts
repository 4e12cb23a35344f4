import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKernel, type AgentestPlugin, type TestCase } from '@agentest/kernel';
import jsonlReporter from '../src/index.js';

function suite(count: number): AgentestPlugin {
  return {
    name: 'test:suite',
    apply({ hooks }) {
      hooks.load.tap('test:suite', () => ({
        name: 'inline',
        needsAgent: false,
        *cases(): Iterable<TestCase> {
          for (let i = 0; i < count; i++)
            yield {
              id: `C${i}`,
              kind: 'echo',
              input: `case ${i}`,
              messages: [],
              source: { file: 'inline', line: i + 1 },
            };
        },
      }));
      hooks.execute.for('echo').tap('test:suite', (tc, ctx) => ({
        run: ctx.run,
        status: 'passed',
        duration_ms: 1,
        output: tc.input,
        assertions: [],
        metrics: {},
        reply: { content: tc.input, text: String(tc.input), raw: { big: 'x'.repeat(100) } },
        usage: { total_tokens: 7 },
        retries: ctx.run - 1,
        details: { grade: 'PASS' },
      }));
    },
  };
}

const plan = { input: { input: 'inline', cwd: '.' }, runs: 1, parallel: 4, failFast: false, env: {}, verbose: false };

test('one run per case: start, case_start, one whole result line per case, summary; no full replies', async () => {
  const output = join(mkdtempSync(join(tmpdir(), 'jsonl-')), 'deep/dir/out.jsonl');
  await createKernel({ plugins: [suite(3), jsonlReporter({ output })] }).run(plan);
  const events = readFileSync(output, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(events.length, 1 + 3 * 2 + 1, 'no run_result lines');
  assert.equal(events[0].type, 'start');
  assert.equal(events.at(-1).type, 'summary');
  assert.equal(events.filter((e) => e.type === 'case_start').length, 3);
  assert.equal(events.filter((e) => e.type === 'run_result').length, 0);
  assert.ok(!readFileSync(output, 'utf8').includes('"reply"'));
  const result = events.find((e) => e.type === 'result' && e.id === 'C0');
  assert.equal(result.runs, undefined, 'the result line is the whole record');
  assert.equal(result.run, undefined);
  assert.equal(result.output, 'case 0');
  assert.deepEqual(
    [result.usage, result.retries, result.details],
    [{ total_tokens: 7 }, 0, { grade: 'PASS' }],
    "the run's own fields are on the result line",
  );
});

test('several runs per case: a run_result line per run, and results without their repeated runs', async () => {
  const output = join(mkdtempSync(join(tmpdir(), 'jsonl-')), 'out.jsonl');
  await createKernel({ plugins: [suite(2), jsonlReporter({ output })] }).run({ ...plan, runs: 2 });
  const events = readFileSync(output, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(events.length, 1 + 2 * (2 * 2 + 1) + 1, 'case_start and run_result per run, result per case');
  const runs = events.filter((e) => e.type === 'run_result' && e.id === 'C1');
  assert.deepEqual(
    runs.map((e) => [e.execution.run, e.execution.retries, e.execution.usage]),
    [
      [1, 0, { total_tokens: 7 }],
      [2, 1, { total_tokens: 7 }],
    ],
  );
  assert.ok(!readFileSync(output, 'utf8').includes('"reply"'));
  const result = events.find((e) => e.type === 'result' && e.id === 'C1');
  assert.equal(result.runs, undefined, 'runs live in the run_result lines');
  assert.equal(result.retries, undefined);
  assert.equal(result.stability.runs, 2);
});

test('20,000 cases stream through with every line intact', async () => {
  const output = join(mkdtempSync(join(tmpdir(), 'jsonl-')), 'out.jsonl');
  const outcome = await createKernel({ plugins: [suite(20_000), jsonlReporter({ output })] }).run(plan);
  assert.deepEqual(outcome.errors, []);
  const lines = readFileSync(output, 'utf8').split('\n');
  assert.equal(lines.pop(), '', 'ends with a newline');
  assert.equal(lines.length, 1 + 2 * 20_000 + 1);
  for (const line of [lines[1]!, lines[30_000]!, lines.at(-1)!]) JSON.parse(line);
});

test('the output option is required', () => {
  assert.throws(
    () => jsonlReporter({}),
    (e: Error & { code?: string }) =>
      e.code === 'PLUGIN_INVALID' && /reporter "agentest:jsonl": option "output" is required/.test(e.message),
  );
});

/** Any execution a run may report, with fields the stream must drop (reply) or carry (usage, extra). */
function executionArbitrary(fc: typeof import('fast-check').default) {
  const json = fc.jsonValue({ maxDepth: 2 });
  const assertion = fc.record(
    {
      pass: fc.boolean(),
      message: fc.string(),
      type: fc.constantFrom('contains', 'regex'),
      expected: json,
      actual: json,
    },
    { requiredKeys: ['pass', 'type'] },
  );
  return fc.record(
    {
      run: fc.nat(),
      status: fc.constantFrom('passed', 'failed'),
      duration_ms: fc.double({ noNaN: true }),
      output: fc.oneof(json, fc.constant(undefined)),
      error: fc.string(),
      assertions: fc.array(assertion, { maxLength: 3 }),
      metrics: fc.dictionary(fc.string(), fc.double({ noNaN: true })),
      reply: fc.record({ content: json }),
      usage: fc.record({ total_tokens: fc.nat() }),
      retries: fc.nat(),
      warnings: fc.array(fc.string(), { maxLength: 2 }),
      extra: fc.oneof(json, fc.func(fc.nat())),
    },
    { requiredKeys: ['run', 'status', 'duration_ms', 'assertions', 'metrics'] },
  );
}

/** The run's start event, which tells the serialiser how many runs each case has. */
function start(runsPerCase: number) {
  return {
    type: 'start' as const,
    timestamp: 't',
    agent_id: 'a',
    connector: '',
    suite: 's',
    kind: 'agent',
    total_cases: 1,
    runs_per_case: runsPerCase,
    parallel: 1,
    environment: {},
  };
}

/** The `run_result` and `result` events of a one-run case. */
function caseEvents(
  run: { status: string; output?: unknown; assertions: unknown[] },
  id: string,
  name: string | undefined,
  sameOutput: boolean,
  warnings: string[] | undefined,
) {
  const runResult = {
    type: 'run_result' as const,
    id,
    ...(name === undefined ? {} : { name }),
    runs: 1,
    execution: run,
  };
  const result = {
    type: 'result' as const,
    id,
    kind: 'agent',
    input: 'x',
    source: { file: 'f', line: 1 },
    status: run.status,
    output: sameOutput ? run.output : 'other',
    duration_ms: 1,
    assertions: run.assertions,
    metrics: {},
    runs: [run],
    ...(warnings ? { warnings } : {}),
  };
  return { runResult, result };
}

test('the serialiser writes exactly what JSON.stringify writes, without replies and repeated runs', async () => {
  const { default: fc } = await import('fast-check');
  const { eventSerialiser } = await import('../src/index.js');
  const execution = executionArbitrary(fc);
  fc.assert(
    fc.property(
      execution,
      fc.string(),
      fc.option(fc.string(), { nil: undefined }),
      fc.boolean(),
      fc.option(fc.array(fc.string()), { nil: undefined }),
      (run, id, name, sameOutput, warnings) => {
        const { runResult, result } = caseEvents(run, id, name, sameOutput, warnings);
        const { reply: _, ...withoutReply } = run;

        // Several runs per case (or no start event): each run on its own line, the result without them.
        const several = eventSerialiser();
        several(start(2) as never);
        assert.equal(several(runResult as never), JSON.stringify({ ...runResult, execution: withoutReply }));
        assert.equal(several(result as never), JSON.stringify({ ...result, runs: undefined }));
        assert.equal(eventSerialiser()(result as never), JSON.stringify({ ...result, runs: undefined }));

        // One run per case: no run line; the result line adds the run's fields it does not carry.
        const one = eventSerialiser();
        one(start(1) as never);
        assert.equal(one(runResult as never), undefined);
        const {
          run: _n,
          status: _s,
          duration_ms: _d,
          output: _o,
          error: _e,
          assertions: _a,
          metrics: _m,
          reply: _r,
          ...own
        } = run;
        const added = Object.fromEntries(Object.entries(own).filter(([key]) => !(key in result)));
        assert.equal(one(result as never), JSON.stringify({ ...result, runs: undefined, ...added }));
        assert.equal(
          one({ ...result, runs: [] } as never),
          JSON.stringify({ ...result, runs: undefined }),
          'a case that never ran',
        );
      },
    ),
    { numRuns: 2_000 },
  );
});

test('a case_start line is exactly what JSON.stringify writes, for any id and name, and for events a plugin changed', async () => {
  const { default: fc } = await import('fast-check');
  const { eventSerialiser } = await import('../src/index.js');
  const serialise = eventSerialiser();
  const text = fc.string({ unit: 'binary' });
  fc.assert(
    fc.property(text, fc.option(text, { nil: undefined }), fc.nat(), fc.nat(), (id, name, run, runs) => {
      const event =
        name === undefined ? { type: 'case_start', id, run, runs } : { type: 'case_start', id, name, run, runs };
      assert.equal(serialise(event as never), JSON.stringify(event));
    }),
    { numRuns: 5_000 },
  );
  const changed = [
    { type: 'case_start', id: 'a', run: 1, runs: 1, tag: 'x' },
    { type: 'case_start', id: 'a', name: undefined, run: 1, runs: 1 },
    { type: 'case_start', run: 1, id: 'a', runs: 1 },
    { type: 'case_start', id: 7, run: 1, runs: 1 },
    { type: 'case_start', id: 'a', run: 1.5, runs: Number.NaN },
    { type: 'case_start', id: 'a', name: { first: 'n' }, run: 1, runs: 1 },
  ];
  for (const event of changed) assert.equal(serialise(event as never), JSON.stringify(event), JSON.stringify(event));
});
