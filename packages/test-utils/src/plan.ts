import type { RunPlan, TestCase } from '@agentest/kernel';

/** The name of the input that `inlineCases` loads. */
export const INLINE = 'inline';

/** A plan for the `inline` input: one run per case, one case at a time. */
export function runPlan(overrides: Partial<RunPlan> = {}): RunPlan {
  return {
    input: { input: INLINE, cwd: process.cwd() },
    runs: 1,
    parallel: 1,
    failFast: false,
    env: {},
    verbose: false,
    ...overrides,
  };
}

/** A case of the agent kind whose input (and only message) is its id. */
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
