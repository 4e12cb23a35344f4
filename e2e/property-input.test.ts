/**
 * Property-based checks of the two layers that read what users write: the JSONL loader
 * (`parseCase`, `jsonlSuite`) and the assertion layer (`validateAssertion`, `runAssertion`). Whatever
 * they are given — generated lines, bytes, assertion specs and outputs — they return a result or
 * throw a structured `AgentestError` naming the place at fault; never any other throw.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  AgentestError,
  type Assertion,
  type AssertInput,
  type Execution,
  type RunPlan,
  type TestCase,
} from '@agentest/kernel';
import { builtinAssertions, runAssertion, validateAssertion } from '@agentest/plugin-assert';
import { jsonlSuite, parseCase } from '@agentest/plugin-jsonl';
import { workspace } from './helpers/workspace.js';

const AT = { file: 'gen.jsonl', line: 7, baseDir: '/nonexistent-base' };
const RUNS = Number(process.env.AGENTEST_PROPERTY_RUNS ?? 400);

/** Runs `fn`; a throw must be an AgentestError of one of `codes` whose message starts at `where`. */
function onlyStructured<T>(fn: () => T, codes: readonly string[], where?: string): T | AgentestError {
  try {
    return fn();
  } catch (error) {
    if (!(error instanceof AgentestError))
      throw new Error(
        `unstructured throw: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
        { cause: error },
      );
    assert.ok(codes.includes(error.code), `unexpected code ${error.code}: ${error.message}`);
    if (where) assert.ok(error.message.startsWith(where), `message does not start with ${where}: ${error.message}`);
    assert.doesNotMatch(error.message, /\n\s+at /, 'no stack in the message');
    return error;
  }
}

// ── generators ────────────────────────────────────────────────────────────────────────────────

const scalar = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const anyJson = fc.jsonValue({ maxDepth: 3 });
/** Values near what users write, and some far from it. */
const fieldValue = fc.oneof(
  scalar,
  anyJson,
  fc.constantFrom('30s', '1m30s', '5 minutes', '', 'file://x.png', '$.a', '(a+)+$'),
);
const messageLike = fc.oneof(
  fc.string(),
  fc.record(
    {
      role: fc.oneof(fc.constantFrom('user', 'assistant', 'system', 'tool'), fc.string()),
      content: fc.oneof(fc.string(), fc.constant(null), anyJson),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      type: fc.constantFrom('text', 'image_url', 'image', 'file', 'audio', 'bogus'),
      text: fc.string(),
      url: fc.string(),
      image_url: fc.oneof(fc.string(), fc.record({ url: fc.string() })),
      data: fc.string(),
    },
    { requiredKeys: ['type'] },
  ),
);
const input = fc.oneof(fieldValue, messageLike, fc.array(messageLike, { maxLength: 4 }));
const assertionSpec = fc.record(
  {
    type: fc.oneof(fc.constantFrom(...builtinAssertions.map((a) => a.type), '', 'script', 'nope'), scalar),
    value: fieldValue,
    path: fc.oneof(fc.string(), fc.constantFrom('$.a', 'a.b[0]', '$..x', '$[?(@.a)]', '$[', "$['k']"), scalar),
    negate: fc.oneof(fc.boolean(), scalar),
    message: fc.oneof(fc.string(), scalar),
    script: fc.oneof(fc.string(), scalar),
  },
  { requiredKeys: [] },
);
const caseObject = fc.record(
  {
    id: fc.oneof(fc.string({ minLength: 1 }), scalar),
    input,
    name: fieldValue,
    user: fieldValue,
    team: fieldValue,
    metadata: fieldValue,
    options: fieldValue,
    skip: fieldValue,
    todo: fieldValue,
    timeout: fieldValue,
    expected: anyJson,
    assert: fc.oneof(assertionSpec, fc.array(fc.oneof(assertionSpec, fc.string(), scalar), { maxLength: 3 }), scalar),
  },
  { requiredKeys: [] },
);
const line = fc.oneof(
  caseObject.map((c) => JSON.stringify(c)),
  fc.string(),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  caseObject.map((c) => JSON.stringify(c).slice(0, -1)),
);

// ── the loader ────────────────────────────────────────────────────────────────────────────────

describe('property: the JSONL loader only returns cases or structured errors', () => {
  test('parseCase on generated lines: a TestCase with the line as source, or INPUT_INVALID at file:line', () => {
    fc.assert(
      fc.property(line, (text) => {
        const outcome = onlyStructured(() => parseCase(text, AT), ['INPUT_INVALID'], 'gen.jsonl:7: ');
        if (outcome instanceof AgentestError) {
          assert.equal(outcome.where, 'gen.jsonl:7');
          assert.match(outcome.message, / — \S/, 'the message says what to do');
          return;
        }
        assert.equal(typeof outcome.id, 'string');
        assert.ok(outcome.id.length > 0);
        assert.deepEqual(outcome.source, { file: 'gen.jsonl', line: 7 });
        assert.ok(Array.isArray(outcome.messages) && outcome.messages.length > 0);
        for (const a of outcome.assert ?? []) assert.equal(typeof a.type, 'string');
      }),
      { numRuns: RUNS * 3 },
    );
  });

  test('jsonlSuite on generated files (bytes included): cases, or INPUT_INVALID / DUPLICATE_CASE_ID at the right line', async () => {
    const dir = workspace('prop-jsonl');
    const fileLines = fc.array(
      fc.oneof(
        { weight: 6, arbitrary: line },
        { weight: 1, arbitrary: fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b).toString('latin1')) },
      ),
      { maxLength: 12 },
    );
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fileLines, fc.boolean(), async (lines, crlf) => {
        const name = `f${n++}.jsonl`;
        const path = join(dir, name);
        writeFileSync(path, Buffer.from(lines.join(crlf ? '\r\n' : '\n'), 'latin1'));
        const suite = jsonlSuite({ name, path, file: name, maxLineBytes: 4096 });
        const seen = new Set<string>();
        try {
          for await (const testCase of suite.cases()) {
            assert.ok(!seen.has(testCase.id), 'a duplicate id is never yielded');
            seen.add(testCase.id);
            assert.ok((testCase.source.line ?? 0) >= 1 && (testCase.source.line ?? 0) <= lines.length);
          }
        } catch (error) {
          if (!(error instanceof AgentestError))
            throw new Error(`unstructured throw: ${String(error)}`, { cause: error });
          assert.ok(['INPUT_INVALID', 'DUPLICATE_CASE_ID'].includes(error.code), error.code);
          assert.match(error.message, new RegExp(`^${name}:\\d+: `));
        }
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });
});

// ── the assertion layer ───────────────────────────────────────────────────────────────────────

const testCase: TestCase = {
  id: 'p',
  kind: 'agent',
  input: 'x',
  messages: [{ role: 'user', content: 'x' }],
  source: { file: 'gen.jsonl', line: 1 },
};
const plan: RunPlan = {
  input: { input: 'gen.jsonl', cwd: '/' },
  runs: 1,
  parallel: 1,
  failFast: false,
  env: {},
  verbose: false,
};
const toolCall = fc.record(
  {
    id: fc.string(),
    name: fc.oneof(fc.string(), fc.constantFrom('search', 'mcp.search')),
    arguments: anyJson,
    result: anyJson,
    error: fc.oneof(fc.string(), fc.constant(undefined)),
  },
  { requiredKeys: ['name'] },
);
const output = fc.oneof(
  anyJson,
  fc.string(),
  fc.string().map((s) => `Here: \`\`\`json\n${s}\n\`\`\``),
  fc.constant(undefined),
);

function inputFor(out: unknown, calls: unknown[]): AssertInput {
  const execution: Execution = {
    run: 1,
    status: 'passed',
    duration_ms: 1,
    output: out,
    assertions: [],
    metrics: {},
    tool_calls: calls as Execution['tool_calls'],
  };
  return { output: out, testCase, execution, plan, signal: new AbortController().signal };
}

describe('property: the assertion layer only returns outcomes or structured errors', () => {
  test('validateAssertion returns a message or undefined, never throws', () => {
    fc.assert(
      fc.property(assertionSpec, (spec) => {
        const problem = onlyStructured(() => validateAssertion(spec as Assertion), []);
        assert.ok(problem === undefined || (typeof problem === 'string' && problem.length > 0));
      }),
      { numRuns: RUNS * 3 },
    );
  });

  test('runAssertion on any spec and any output returns {pass, message?} or {error}; a malformed spec cannot be evaluated, saying why', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...builtinAssertions),
        assertionSpec,
        output,
        fc.array(toolCall, { maxLength: 3 }),
        (definition, spec, out, calls) => {
          const assertion = { ...spec, type: definition.type } as Assertion;
          const outcome = onlyStructured(() => runAssertion(definition, assertion, inputFor(out, calls)), []);
          assert.ok(!(outcome instanceof AgentestError));
          assert.equal(typeof outcome.pass, 'boolean');
          if (outcome.message !== undefined) assert.equal(typeof outcome.message, 'string');
          const problem = validateAssertion(assertion);
          if (problem)
            assert.deepEqual(
              outcome,
              { pass: false, error: problem },
              'a malformed assertion cannot be evaluated, with its validation message',
            );
          if (outcome.error !== undefined)
            assert.ok(!outcome.pass && outcome.error.length > 0, 'could not evaluate says why');
          else if (!outcome.pass) assert.ok(outcome.message && outcome.message.length > 0, 'a failure says why');
        },
      ),
      { numRuns: RUNS * 3 },
    );
  });
});
