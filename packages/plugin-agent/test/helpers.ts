import {
  createKernel,
  type AgentestPlugin,
  type AgentRef,
  type CaseResult,
  type RunOutcome,
  type RunPlan,
  type TestCase,
} from '@agentest/kernel';

export function plan(overrides: Partial<RunPlan> = {}): RunPlan {
  return {
    input: { input: 'inline', cwd: process.cwd() },
    runs: 1,
    parallel: 1,
    failFast: false,
    env: {},
    verbose: false,
    ...overrides,
  };
}

export function testCase(id: string, extra: Partial<TestCase> = {}): TestCase {
  return {
    id,
    kind: 'agent',
    input: id,
    messages: [{ role: 'user', content: id }],
    source: { file: 'inline.jsonl', line: 1 },
    ...extra,
  };
}

/** A loader for inline cases (with an optional agent hint, as a JSONL loader gives) and a `contains` assertion. */
export function inline(cases: TestCase[], agentHint?: AgentRef): AgentestPlugin {
  return {
    name: 'test:inline',
    apply({ hooks }) {
      hooks.load.tapPromise('test:inline', async (input) =>
        input.input === 'inline' ? { name: 'inline', needsAgent: true, cases: () => cases, agentHint } : undefined,
      );
      hooks.assert.for('contains').tap('test:inline', (a, input) => ({
        pass: String(input.output).includes(String(a.value)),
        message: `output does not contain '${a.value}'`,
      }));
    },
  };
}

export interface Run {
  outcome: RunOutcome;
  results: CaseResult[];
  byId(id: string): CaseResult;
}

/** Runs cases through a real kernel with the given plugins and collects the `result` events. */
export async function run(
  plugins: AgentestPlugin[],
  cases: TestCase[],
  overrides: Partial<RunPlan> = {},
  agentHint?: AgentRef,
): Promise<Run> {
  const results: CaseResult[] = [];
  const collector: AgentestPlugin = {
    name: 'test:collector',
    apply: ({ hooks }) => hooks.report.tap('test:collector', (e) => void (e.type === 'result' && results.push(e))),
  };
  const outcome = await createKernel({ plugins: [inline(cases, agentHint), ...plugins, collector] }).run(
    plan(overrides),
  );
  return { outcome, results, byId: (id) => results.find((r) => r.id === id)! };
}
