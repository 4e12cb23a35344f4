import { tagsSelect } from './case-tags.js';
import type { RunPlan } from './types/run.js';
import type { Suite, TestCase } from './types/test-case.js';

/** Whether the run selects a case: `--run` matches its id or name, and the plan's `include` takes it. */
export function selects(plan: RunPlan, testCase: TestCase): boolean {
  return matches(plan, testCase) && (!plan.include || plan.include(testCase));
}

/** Whether `--run` and `--tag` select a case: its id or its name matches, and its tags pass. */
export function matches(plan: RunPlan, testCase: TestCase): boolean {
  if (plan.tags && !tagsSelect(plan.tags, testCase.tags)) return false;
  if (!plan.filter) return true;
  // A global RegExp keeps state between test() calls; start each case afresh.
  if (plan.filter instanceof RegExp) plan.filter.lastIndex = 0;
  return plan.filter.test(testCase.id) || (testCase.name !== undefined && plan.filter.test(testCase.name));
}

/** The cases the run selects; without a selection, the suite's own stream (one generator fewer per case). */
export function filtered(suite: Suite, plan: RunPlan): AsyncIterable<TestCase> | Iterable<TestCase> {
  return plan.filter || plan.tags || plan.include ? selected(suite, plan) : suite.cases();
}

async function* selected(suite: Suite, plan: RunPlan): AsyncGenerator<TestCase> {
  for await (const testCase of suite.cases()) if (selects(plan, testCase)) yield testCase;
}

export async function collect(suite: Suite, plan: RunPlan): Promise<TestCase[]> {
  const all: TestCase[] = [];
  for await (const testCase of filtered(suite, plan)) all.push(testCase);
  return all;
}
