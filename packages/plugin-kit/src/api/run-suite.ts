import {
  createKernel,
  type Agent,
  type AgentestPlugin,
  type CaseResult,
  type RunEvent,
  type Suite,
  type TestCase,
} from '@agentest/kernel';
import { goDuration, isCi } from '@agentest/common';
import { adapterToAgent, defineAdapter, executeAgentCase, yaoPlanContext, type Adapter } from '@agentest/plugin-agent';
import { executeSpec, type SpecSandbox } from '../execute-spec.js';
import { forbidFocus, NOT_FOCUSED } from '../focus.js';
import { agentCase, specCase } from '../kit-case.js';
import { measureKitRun } from '../kit-metrics.js';
import { SandboxEntries } from '../sandbox-entry.js';
import { getTestStatus } from './metrics.js';
import {
  kitIdWidth,
  printCaseDetail,
  printCaseLine,
  printSuiteFooter,
  printSuiteHeader,
  writeProgress,
} from './print.js';
import type { KitTestCase, SuiteOptions, TestResult } from './types.js';

const PLUGIN_NAME = 'agentest:kit-run-suite';

/**
 * agentest-kit's `runSuite`, on the kernel: data cases go through the adapter (every field of the
 * case reaches `call`; an async `evaluate` is awaited), function tests run here with `ctx.run`. A
 * throwing adapter fails its case and the suite goes on; every case has a timeout; `parallel` runs
 * cases side by side. Results come back in input order with agentest-kit's field names.
 */
export async function runSuite(
  tests: readonly KitTestCase[],
  adapter: Adapter,
  options: SuiteOptions = {},
): Promise<TestResult[]> {
  defineAdapter(adapter);
  if (!Array.isArray(tests))
    throw new TypeError('runSuite(tests, adapter): tests must be an array (from fromJsonCases / fromRegistered)');
  const { label = 'run', apiUrl = '', parallel = 1, timeoutMs, print = true, allowOnly = !isCi() } = options;
  const focused = tests.some((tc) => tc.only);
  if (focused && !allowOnly) forbidFocus(tests, process.cwd());
  const { cases, byId } = kernelCases(tests, focused);
  const agent: Agent & { adapter: Adapter } = { ...adapterToAgent('adapter', adapter), adapter };
  const results = new Map<string, TestResult>();
  let printed = 0;
  const idWidth = kitIdWidth(tests);
  if (print) printSuiteHeader(label, apiUrl);
  if (cases.length === 0) {
    if (print) printSuiteFooter();
    return [];
  }

  const plugin = suitePlugin(label, cases, agent, (event) => {
    if (event.type === 'case_start' && print) writeProgress(`running ${event.id}...`);
    if (event.type !== 'result') return;
    const tc = byId.get(event.id)!;
    results.set(event.id, toTestResult(event, tc));
    // Lines appear in input order even when cases finish out of order.
    while (print && printed < tests.length && results.has(tests[printed]!.id)) {
      const next = tests[printed++]!;
      const result = results.get(next.id)!;
      const status = getTestStatus(result);
      printCaseLine(result, next, status, idWidth);
      if (status === 'PARTIAL' || status === 'FAIL') printCaseDetail(result, next);
    }
  });
  await createKernel({ plugins: [plugin] }).run({
    input: { input: label, cwd: process.cwd() },
    runs: 1,
    parallel: Math.max(1, Math.floor(parallel)),
    ...(timeoutMs ? { timeoutMs } : {}),
    durationText: goDuration,
    failFast: false,
    env: {},
    context: yaoPlanContext({}),
    verbose: false,
  });
  if (print) printSuiteFooter();
  return tests.map((tc) => results.get(tc.id)!);
}

/** The kernel's cases, in input order; a case that another's `.only` leaves out is skipped saying so. */
function kernelCases(tests: readonly KitTestCase[], focused: boolean) {
  const byId = new Map<string, KitTestCase>();
  const cases = tests.map((tc) => {
    if (byId.has(tc.id)) throw new TypeError(`runSuite: two cases have the id "${tc.id}"`);
    byId.set(tc.id, tc);
    return toKernelCase(tc, focused && !tc.only && tc.status === 'active' ? NOT_FOCUSED : undefined);
  });
  return { cases, byId };
}

/** The suite as one plugin: its cases, the adapter's agent, both executors, and `onEvent` for what it reports. */
function suitePlugin(
  label: string,
  cases: TestCase[],
  agent: Agent,
  onEvent: (event: RunEvent) => void,
): AgentestPlugin {
  return {
    name: PLUGIN_NAME,
    apply({ hooks }) {
      const suite: Suite = { name: label, needsAgent: true, cases: () => cases, measure: measureKitRun };
      const noSandbox: SpecSandbox = {
        pool: () => {
          throw new Error('runSuite runs test functions in-process');
        },
        entries: new SandboxEntries(),
        aliases: () => ({}),
      };
      hooks.load.tapPromise(PLUGIN_NAME, async () => suite);
      hooks.resolve.tapPromise(PLUGIN_NAME, async () => agent);
      hooks.execute.for('agent').tapPromise(PLUGIN_NAME, executeAgentCase);
      hooks.execute.for('spec').tapPromise(PLUGIN_NAME, (testCase, ctx) => executeSpec(testCase, ctx, noSandbox));
      hooks.report.tapPromise(PLUGIN_NAME, async (event) => onEvent(event));
    },
  };
}

/** `unfocused`: the reason this case does not run because another is marked `.only`. */
function toKernelCase(tc: KitTestCase, unfocused?: string): TestCase {
  const source = { file: tc.id };
  const status = { skip: unfocused ?? tc.status === 'skip', todo: tc.status === 'todo' };
  if (tc.fn || tc.status === 'todo') {
    return specCase(
      tc.id,
      { name: tc.name, status: tc.status, timeoutMs: tc.timeoutMs, ...(tc.tags ? { tags: tc.tags } : {}) },
      { name: tc.name, ...(tc.fn ? { fn: tc.fn } : {}) },
      source,
      unfocused,
    );
  }
  const fields = { ...tc.data, query: tc.query ?? '', expected_keywords: tc.expected_keywords, ...pick(tc) };
  return agentCase(tc.id, fields, source, {
    name: tc.name,
    ...status,
    timeoutMs: tc.timeoutMs,
    ...(tc.tags ? { tags: tc.tags } : {}),
  });
}

function pick(tc: KitTestCase): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of ['intent', 'expected_behavior', 'difficulty', 'notes'] as const)
    if (tc[key] !== undefined) out[key] = tc[key]!;
  return out;
}

/** A kernel result in agentest-kit's shape. */
function toTestResult(result: CaseResult, tc: KitTestCase): TestResult {
  const query = tc.query ?? '';
  if (result.status === 'skipped')
    return { ...placeholder(tc.id, query), ...(result.todo ? { todo: true } : { skipped: true }) };
  const run = result.runs[0];
  if (tc.fn) {
    const last = run?.output as Record<string, unknown> | undefined;
    const passed = result.status === 'passed';
    const error = passed ? null : (result.error ?? result.status);
    const m = result.metrics;
    return {
      case_id: tc.id,
      query: tc.query || (typeof last?.query === 'string' ? last.query : '') || '(fn-based)',
      elapsed_ms: Math.round(result.duration_ms),
      error,
      structure_ok: passed,
      // What the kit rule measured: a failed test never reads as a matched intent or a good score.
      intent_matched: passed && m.intent_match_rate !== 0,
      keyword_hits: [],
      keyword_hit_rate: m.keyword_hit_rate ?? null,
      quality_score: m.quality_score ?? 0,
      failure_details: error ? [error] : [],
      is_fn_based: true,
      normalized_categories: Array.isArray(last?.normalized_categories) ? (last.normalized_categories as string[]) : [],
      raw: last?.raw ?? null,
      metrics: result.metrics,
    };
  }
  const evaluation = run?.output;
  if (run?.reply?.verdict && evaluation && typeof evaluation === 'object') {
    const e = evaluation as Record<string, unknown>;
    return {
      case_id: tc.id,
      query,
      elapsed_ms: result.metrics.latency_ms ?? result.duration_ms,
      ...e,
      metrics: result.metrics,
    } as TestResult;
  }
  // The adapter threw, timed out, or returned something that is not an evaluation.
  return {
    ...placeholder(tc.id, query),
    elapsed_ms: Math.round(result.duration_ms),
    error: result.error ?? `case ended with status ${result.status}`,
    structure_ok: false,
    intent_matched: false,
    metrics: result.metrics,
  };
}

function placeholder(id: string, query: string): TestResult {
  return {
    case_id: id,
    query,
    elapsed_ms: 0,
    error: null,
    structure_ok: true,
    intent_matched: true,
    keyword_hits: [],
    keyword_hit_rate: null,
    quality_score: 0,
    failure_details: [],
  };
}
