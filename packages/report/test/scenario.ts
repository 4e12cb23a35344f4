import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { yaoPlanContext } from '@agentest/plugin-agent';
import {
  createKernel,
  type AgentestPlugin,
  type Execution,
  type RunOutcome,
  type RunPlan,
  type RunSignals,
  type TestCase,
} from '@agentest/kernel';
import { verdictPlugin } from '../src/index.js';

/**
 * A realistic run through a real kernel, shared by the reporter packages' tests: an inline loader,
 * an executor whose behaviour is scripted per case and run, and a `contains` assertion that reports
 * expected and actual values the way the assertion plugin does.
 */

export type Behaviour = (run: number) => Partial<Execution> | Promise<Partial<Execution>>;

export interface ScenarioCase extends Partial<Omit<TestCase, 'id'>> {
  id: string;
  /** What the executor returns for each run; default: a passing run echoing the input. */
  behaviour?: Behaviour;
}

export interface ScenarioOptions {
  runs?: number;
  parallel?: number;
  thresholds?: Record<string, number>;
  kind?: 'agent' | 'script';
  meta?: Record<string, unknown>;
  suite?: string;
  /** Passed to `kernel.run` (an `interrupt` signal a case's behaviour can fire). */
  signals?: RunSignals;
}

export function scenarioCase(c: ScenarioCase): TestCase & { behaviour?: Behaviour } {
  const input = c.input ?? `input of ${c.id}`;
  return {
    kind: 'agent',
    input,
    messages: [{ role: 'user', content: String(input) }],
    source: { file: 'tests/inputs.jsonl', line: 1 },
    ...c,
  };
}

export async function runScenario(
  cases: ScenarioCase[],
  reporters: AgentestPlugin[],
  options: ScenarioOptions = {},
): Promise<RunOutcome> {
  const testCases = cases.map(scenarioCase);
  const kind = options.kind ?? 'agent';
  for (const c of testCases) c.kind = kind;
  const inline: AgentestPlugin = {
    name: 'test:scenario',
    apply({ hooks }) {
      hooks.load.tapPromise('test:scenario', async () => ({
        name: options.suite ?? (kind === 'script' ? 'scripts.expense.setup' : 'tests/inputs.jsonl'),
        needsAgent: kind === 'agent',
        cases: () => testCases,
        ...(options.meta ? { meta: options.meta } : {}),
      }));
      hooks.resolve.tapPromise('test:scenario', async () => ({
        id: 'keyword',
        connector: 'deepseek.v3',
        run: async () => ({ content: '', text: '' }),
      }));
      hooks.execute.for(kind).tapPromise('test:scenario', async (testCase, ctx) => {
        const behaviour = (testCase as ScenarioCase).behaviour;
        const partial = behaviour ? await behaviour(ctx.run) : { output: `echo: ${String(testCase.input)}` };
        return { run: ctx.run, status: 'passed', duration_ms: 100 + ctx.run, assertions: [], metrics: {}, ...partial };
      });
      hooks.assert.for('contains').tap('test:scenario', (assertion, input) => {
        const actual = typeof input.output === 'string' ? input.output : JSON.stringify(input.output);
        const pass = actual.includes(String(assertion.value));
        return {
          pass,
          expected: assertion.value,
          actual,
          message: pass ? undefined : `output does not contain '${String(assertion.value)}'`,
        };
      });
    },
  };
  const plan: RunPlan = {
    input: { input: 'scenario', cwd: process.cwd() },
    runs: options.runs ?? 1,
    parallel: options.parallel ?? 1,
    failFast: false,
    env: {},
    verbose: false,
    // Who the run acts as, as the CLI's plan gives it (Yao's test-user / test-team by default).
    context: yaoPlanContext({}),
    ...(options.thresholds ? { thresholds: options.thresholds } : {}),
  };
  return createKernel({ plugins: [inline, verdictPlugin(), ...reporters] }).run(plan, options.signals);
}

/** The cases most tests use: one of each status, a pipe-and-newline output, a self-graded PARTIAL. */
export function mixedCases(): ScenarioCase[] {
  return [
    {
      id: 'T001',
      input: 'Extract keywords: AI and ML',
      assert: [{ type: 'contains', value: 'AI' }],
      behaviour: () => ({ output: 'AI, ML' }),
      source: { file: 'tests/inputs.jsonl', line: 1 },
    },
    {
      id: 'T002',
      input: [
        { role: 'system', content: 'You extract keywords.' },
        { role: 'user', content: 'Cloud costs | budgets' },
      ],
      assert: [{ type: 'contains', value: 'cloud' }],
      behaviour: () => ({ output: 'costs | budgets\nsecond line' }),
      source: { file: 'tests/inputs.jsonl', line: 2 },
    },
    {
      id: 'T003',
      input: 'slow one',
      behaviour: () => ({ status: 'timeout', error: 'timeout after 30s' }),
      source: { file: 'tests/inputs.jsonl', line: 3 },
    },
    {
      id: 'T004',
      input: 'boom',
      behaviour: () => ({ status: 'error', error: 'agent exploded\n  at step 2' }),
      source: { file: 'tests/inputs.jsonl', line: 4 },
    },
    { id: 'T005', input: 'later', skip: 'needs network', source: { file: 'tests/inputs.jsonl', line: 5 } },
    {
      id: 'T006',
      input: 'partial',
      source: { file: 'tests/inputs.jsonl', line: 6 },
      behaviour: () => ({
        output: { intent: 'report' },
        details: { grade: 'PARTIAL' },
        metrics: { keyword_hit_rate: 0.5 },
      }),
    },
  ];
}

/** A temporary directory removed when the test file ends. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agentest-reporter-'));
  after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}
