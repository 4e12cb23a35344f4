/**
 * The guard for the whole class of wrong verdicts: over every assertion type × `negate` × outputs,
 * and scripts that throw, reject, hang, are missing or return junk, no assertion that could not be
 * evaluated ever yields a pass. Runs through `createKernel()` with the real assertion and script
 * plugins, so the rule is checked where it is applied: in the kernel.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  createKernel,
  type AgentestPlugin,
  type Assertion,
  type CaseResult,
  type RunPlan,
  type TestCase,
} from '@agentest/kernel';
import assertPlugin, { builtinAssertions, validateAssertion } from '@agentest/plugin-assert';
import script from '@agentest/plugin-script';
import { workspace } from './helpers/workspace.js';

const RUNS = Math.max(4, Math.ceil(Number(process.env.AGENTEST_PROPERTY_RUNS ?? 400) / 50));

/** Scripts that judge, and scripts that cannot (each in its own way). */
const SCRIPTS = `
export function True() { return true; }
export function False() { return false; }
export function Detailed(output) { return { pass: typeof output === 'string', message: 'checked' }; }
export function Throws() { throw new Error('boom'); }
export async function Rejects() { throw new Error('async boom'); }
export function ReturnsNumber() { return 42; }
export function ReturnsString() { return 'true'; }
export function ReturnsNull() { return null; }
export function ReturnsNothing() {}
export function PassNotBoolean() { return { pass: 'yes' }; }
export function MessageOnly() { return { message: 'fine' }; }
export function Hangs() { while (true) {} }
export async function HangsAsync() { await new Promise(() => {}); }
`;
const JUDGING = ['True', 'False', 'Detailed'];
const UNJUDGING = [
  'Throws',
  'Rejects',
  'ReturnsNumber',
  'ReturnsString',
  'ReturnsNull',
  'ReturnsNothing',
  'PassNotBoolean',
  'MessageOnly',
  'Missing',
  'Hangs',
  'HangsAsync',
];

// ── generators ────────────────────────────────────────────────────────────────────────────────

/** Outputs in which no JSON object or array can be found: a json_path cannot be evaluated on them. */
const notJson = fc.oneof(
  fc.stringMatching(/^[a-z ]{0,24}$/),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
);
const jsonObject = fc.oneof(
  fc.dictionary(fc.constantFrom('a', 'id', 'items', 'error'), fc.jsonValue({ maxDepth: 2 })),
  fc.record({ items: fc.array(fc.record({ id: fc.integer() }, { requiredKeys: [] }), { maxLength: 3 }) }),
);
const anyOutput = fc.oneof(
  notJson,
  jsonObject,
  jsonObject.map((o) => JSON.stringify(o)),
  fc.jsonValue({ maxDepth: 2 }),
);

interface Generated {
  assertion: Assertion;
  output: unknown;
  /** Known in advance that this assertion cannot be evaluated on this output. */
  unjudgeable: boolean;
}

const negate = fc.boolean();
const builtinSpec = fc.record({
  type: fc.constantFrom(...builtinAssertions.map((a) => a.type), ''),
  value: fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom('string', 'object', 'number', 'null', '\\d+', 'search', { tool: 'search' }),
  ),
  path: fc.constantFrom('$.a', '$..id', '$.items[*].id', '$.items[0:2]', '$', 'items[0].id', '$.error'),
});
const generated: fc.Arbitrary<Generated> = fc.oneof(
  // Every built-in type on any output, negated or not.
  fc
    .record({ spec: builtinSpec, negate, output: anyOutput, withValue: fc.boolean() })
    .map(({ spec, negate, output, withValue }) => ({
      assertion: {
        type: spec.type,
        path: spec.path,
        ...(withValue || spec.type !== 'json_path' ? { value: spec.value } : {}),
        negate,
      },
      output,
      unjudgeable: false,
    }))
    .filter(({ assertion }) => validateAssertion(assertion) === undefined), // malformed ones are refused before the run
  // json_path on an output that holds no JSON: never a verdict.
  fc
    .record({
      path: builtinSpec.map((s) => s.path),
      negate,
      output: notJson,
      value: fc.option(fc.jsonValue({ maxDepth: 1 }), { nil: undefined }),
    })
    .map(({ path, negate, output, value }) => ({
      assertion: { type: 'json_path', path, negate, ...(value === undefined ? {} : { value }) },
      output,
      unjudgeable: true,
    })),
  // Script assertions that judge, and ones that cannot.
  fc.record({ fn: fc.constantFrom(...JUDGING), negate, output: anyOutput }).map(({ fn, negate, output }) => ({
    assertion: { type: 'script', script: `scripts.checks.${fn}`, negate },
    output,
    unjudgeable: false,
  })),
  fc.record({ fn: fc.constantFrom(...UNJUDGING), negate, output: anyOutput }).map(({ fn, negate, output }) => ({
    assertion: { type: 'script', script: `scripts.checks.${fn}`, negate },
    output,
    unjudgeable: true,
  })),
);

// ── the kernel ────────────────────────────────────────────────────────────────────────────────

function inline(file: string, cases: Generated[]): AgentestPlugin {
  const testCases: TestCase[] = cases.map((c, i) => ({
    id: `c${i}`,
    kind: 'agent',
    input: i,
    messages: [],
    assert: [c.assertion],
    timeoutMs: 5_000,
    source: { file, line: i + 1 },
  }));
  return {
    name: 'test:generated',
    apply({ hooks }) {
      hooks.load.tapPromise('test:generated', async () => ({
        name: 'generated',
        needsAgent: false,
        cases: () => testCases,
      }));
      hooks.execute.for('agent').tapPromise('test:generated', async (c, ctx) => ({
        run: ctx.run,
        status: 'passed',
        duration_ms: 0,
        output: cases[c.input as number]!.output,
        assertions: [],
        metrics: {},
      }));
    },
  };
}

async function judge(dir: string, cases: Generated[]): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  const collect: AgentestPlugin = {
    name: 'test:collect',
    apply: ({ hooks }) => hooks.report.tap('test:collect', (e) => void (e.type === 'result' && results.push(e))),
  };
  const plan: RunPlan = {
    input: { input: 'generated', cwd: dir },
    runs: 1,
    parallel: 4,
    failFast: false,
    env: {},
    verbose: false,
  };
  const kernel = createKernel({
    plugins: [
      assertPlugin(),
      script({ maxThreads: 2, assertionTimeout: '1s' }),
      inline(join(dir, 'cases.jsonl'), cases),
      collect,
    ],
  });
  await kernel.run(plan);
  return results.sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1)));
}

describe('property: no assertion that could not be evaluated ever yields a pass', () => {
  test('every assertion type × negate × outputs, and scripts that error, hang or return junk', async () => {
    const dir = workspace('prop-verdicts');
    mkdirSync(join(dir, 'scripts'));
    writeFileSync(join(dir, 'scripts', 'checks.ts'), SCRIPTS);
    await fc.assert(
      fc.asyncProperty(fc.array(generated, { minLength: 1, maxLength: 14 }), async (cases) => {
        const results = await judge(dir, cases);
        assert.equal(results.length, cases.length);
        results.forEach((result, i) => {
          const { assertion, unjudgeable } = cases[i]!;
          const label = `${JSON.stringify(assertion)} on ${JSON.stringify(cases[i]!.output)}: ${result.status} ${result.error ?? ''}`;
          if (unjudgeable)
            assert.ok(result.status === 'error' || result.status === 'timeout', `could not be evaluated, yet ${label}`);
          const unevaluated = result.assertions.filter((a) => a.error !== undefined);
          if (unevaluated.length) assert.equal(result.status, 'error', label);
          if (result.status === 'passed') {
            assert.ok(
              result.assertions.length === 1 && result.assertions.every((a) => a.pass && a.error === undefined),
              label,
            );
          }
          if (result.status === 'failed')
            assert.ok(
              result.assertions.every((a) => a.error === undefined),
              label,
            );
        });
      }),
      { numRuns: RUNS },
    );
  });
});
