import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Assertion, AssertInput, Execution, ToolCall } from '@agentest/kernel';
import { builtinAssertions, runAssertion } from '../src/index.js';

/**
 * Work that has not ended by then runs away: far above what bounded work takes on a busy machine. Only a hang catcher.
 */
export const HANG_MS = 60_000;

export interface AcceptCase {
  output: unknown;
  value?: unknown;
  /** Other assertion fields (`path`, …). */
  with?: Partial<Assertion>;
  toolCalls?: ToolCall[];
  description?: string;
}

export interface RejectCase extends AcceptCase {
  /** The failure message: exact text, or a pattern it must match. */
  reason: string | RegExp;
}

/** The input an assertion tap receives, for an output and the tool calls of its run. */
export function assertInput(output: unknown, toolCalls?: ToolCall[]): AssertInput {
  const execution: Execution = {
    run: 1,
    status: 'passed',
    duration_ms: 1,
    output,
    assertions: [],
    metrics: {},
    ...(toolCalls ? { tool_calls: toolCalls } : {}),
  };
  return {
    output,
    execution,
    testCase: { id: 'T1', kind: 'agent', input: 'x', messages: [], source: { file: 'inline.jsonl', line: 1 } },
    plan: { input: { input: 'inline', cwd: '/' }, runs: 1, parallel: 1, failFast: false, env: {}, verbose: false },
    signal: new AbortController().signal,
  };
}

/**
 * Table tests for one assertion type (stylelint's `testRule`): every `accept` row must pass, every
 * `reject` row must be judged false with its `reason` as the message, and every `unjudged` row must
 * be answered "could not evaluate" (`error`, which the kernel turns into an errored run) with its `reason`.
 */
export function testAssertion(spec: {
  type: string;
  accept?: AcceptCase[];
  reject?: RejectCase[];
  unjudged?: RejectCase[];
}): void {
  const definition = builtinAssertions.find((d) => d.type === spec.type);
  if (!definition) throw new Error(`no built-in assertion "${spec.type}"`);
  const run = (row: AcceptCase) => {
    const assertion: Assertion = {
      type: spec.type,
      ...(row.value === undefined ? {} : { value: row.value }),
      ...row.with,
    };
    return runAssertion(definition, assertion, assertInput(row.output, row.toolCalls));
  };
  const label = (row: AcceptCase) =>
    row.description ?? `output ${short(row.output)}, value ${short(row.value)}${row.with ? ` ${short(row.with)}` : ''}`;
  for (const row of spec.accept ?? []) {
    test(`${spec.type} accepts: ${label(row)}`, () => {
      const outcome = run(row);
      assert.equal(outcome.pass, true, `expected a pass, got: ${outcome.message}`);
    });
  }
  for (const row of spec.reject ?? []) {
    test(`${spec.type} rejects: ${label(row)}`, () => {
      const outcome = run(row);
      assert.equal(outcome.pass, false, `expected a failure, got a pass: ${outcome.message}`);
      assert.equal(outcome.error, undefined, `expected a verdict, got "could not evaluate": ${outcome.error}`);
      matchesReason(outcome.message, row.reason);
    });
  }
  for (const row of spec.unjudged ?? []) {
    test(`${spec.type} cannot evaluate: ${label(row)}`, () => {
      const outcome = run(row);
      assert.equal(outcome.pass, false);
      assert.notEqual(outcome.error, undefined, `expected "could not evaluate", got a verdict: ${outcome.message}`);
      matchesReason(outcome.error, row.reason);
    });
  }
}

function matchesReason(text: string | undefined, reason: string | RegExp): void {
  if (typeof reason === 'string') assert.equal(text, reason);
  else assert.match(text ?? '', reason);
}

function short(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
