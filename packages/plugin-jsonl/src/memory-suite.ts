import { AgentestError, type Suite, type TestCase } from '@agentest/kernel';
import { caseRules } from './case-rules.js';
import { DEFAULT_TIMEOUT_MS } from './jsonl-suite.js';
import { createCase } from './parse-case.js';

/** The suite's name, and the `file` its cases' sources name. */
export const MEMORY_SUITE_NAME = '<cases>';

/**
 * A suite of cases held in memory (`createRunPlan({ cases })`), with no file and no loader: each case
 * checked and normalised as a JSONL line is, up front, and named `cases[i]` in messages; a repeated id
 * is an error. The agent is found from the working directory, as for a direct message. `simulator`
 * (`--simulator`) plays the user in the dynamic cases that name none, as for a file's.
 */
export function memorySuite(cases: readonly unknown[], cwd: string, options: { simulator?: string } = {}): Suite {
  const first = new Map<string, number>();
  const rules = caseRules(cwd, options.simulator ? { defaultSimulator: options.simulator } : {});
  const testCases: TestCase[] = cases.map((fields, i) => {
    const label = `cases[${i}]`;
    const testCase = createCase(fields, { file: MEMORY_SUITE_NAME, line: i + 1, baseDir: cwd, label, rules });
    const earlier = first.get(testCase.id);
    if (earlier !== undefined)
      throw new AgentestError(
        'INPUT_INVALID',
        `${label}: duplicate id "${testCase.id}" (first used in cases[${earlier}]) — give every case a unique id`,
        { where: label },
      );
    first.set(testCase.id, i);
    return testCase;
  });
  return {
    name: MEMORY_SUITE_NAME,
    needsAgent: true,
    agentHint: { path: cwd },
    defaultTimeoutMs: DEFAULT_TIMEOUT_MS,
    meta: { mode: 'cases' },
    cases: () => testCases,
  };
}
