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
        name: 'inline', needsAgent: false,
        *cases(): Iterable<TestCase> {
          for (let i = 0; i < count; i++) yield { id: `C${i}`, kind: 'echo', input: `case ${i}`, messages: [], source: { file: 'inline', line: i + 1 } };
        },
      }));
      hooks.execute.for('echo').tap('test:suite', (tc, ctx) => ({
        run: ctx.run, status: 'passed', duration_ms: 1, output: tc.input, assertions: [], metrics: {},
        reply: { content: tc.input, text: String(tc.input), raw: { big: 'x'.repeat(100) } },
      }));
    },
  };
}

const plan = { input: { input: 'inline', cwd: '.' }, runs: 1, parallel: 4, failFast: false, env: {}, verbose: false };

test('every event becomes one line, without full replies, and results without their repeated runs', async () => {
  const output = join(mkdtempSync(join(tmpdir(), 'jsonl-')), 'deep/dir/out.jsonl');
  await createKernel({ plugins: [suite(3), jsonlReporter({ output })] }).run(plan);
  const events = readFileSync(output, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(events.length, 1 + 3 * 3 + 1, 'one line per event');
  assert.equal(events[0].type, 'start');
  assert.equal(events.at(-1).type, 'summary');
  assert.equal(events.filter((e) => e.type === 'result').length, 3);
  assert.ok(!readFileSync(output, 'utf8').includes('"reply"'));
  const result = events.find((e) => e.type === 'result');
  assert.equal(result.runs, undefined, 'runs live in the run_result lines');
  assert.equal(result.output, 'case 0');
});

test('20,000 cases stream through with every line intact', async () => {
  const output = join(mkdtempSync(join(tmpdir(), 'jsonl-')), 'out.jsonl');
  const outcome = await createKernel({ plugins: [suite(20_000), jsonlReporter({ output })] }).run(plan);
  assert.equal(outcome.exitCode, 0);
  const lines = readFileSync(output, 'utf8').split('\n');
  assert.equal(lines.pop(), '', 'ends with a newline');
  assert.equal(lines.length, 1 + 3 * 20_000 + 1);
  for (const line of [lines[1]!, lines[30_000]!, lines.at(-1)!]) JSON.parse(line);
});

test('the output option is required', () => {
  assert.throws(() => jsonlReporter({}), /"output" option/);
});

test('the serialiser writes exactly what JSON.stringify writes, without replies and repeated runs', async () => {
  const { default: fc } = await import('fast-check');
  const { eventSerialiser } = await import('../src/index.js');
  const json = fc.jsonValue({ maxDepth: 2 });
  const assertion = fc.record({ pass: fc.boolean(), message: fc.string(), type: fc.constantFrom('contains', 'regex'), expected: json, actual: json }, { requiredKeys: ['pass', 'type'] });
  const execution = fc.record(
    { run: fc.nat(), status: fc.constantFrom('passed', 'failed'), duration_ms: fc.double({ noNaN: true }), output: fc.oneof(json, fc.constant(undefined)), error: fc.string(), assertions: fc.array(assertion, { maxLength: 3 }), metrics: fc.dictionary(fc.string(), fc.double({ noNaN: true })), reply: fc.record({ content: json }), extra: fc.oneof(json, fc.func(fc.nat())) },
    { requiredKeys: ['run', 'status', 'duration_ms', 'assertions', 'metrics'] },
  );
  fc.assert(
    fc.property(execution, fc.string(), fc.option(fc.string(), { nil: undefined }), fc.boolean(), (run, id, name, sameOutput) => {
      const serialise = eventSerialiser();
      const runResult = { type: 'run_result' as const, id, ...(name === undefined ? {} : { name }), runs: 1, execution: run };
      const { reply: _, ...withoutReply } = run;
      assert.equal(serialise(runResult as never), JSON.stringify({ ...runResult, execution: withoutReply }));
      const result = { type: 'result' as const, id, kind: 'agent', input: 'x', source: { file: 'f', line: 1 }, status: run.status, output: sameOutput ? run.output : 'other', duration_ms: 1, assertions: run.assertions, metrics: {}, runs: [run] };
      assert.equal(serialise(result as never), JSON.stringify({ ...result, runs: undefined }));
    }),
    { numRuns: 2_000 },
  );
});
