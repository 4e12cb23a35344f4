import type { StoredTap } from './call-taps.js';
import { HelperCheck } from './check-helpers.js';
import { didYouMean } from './did-you-mean.js';
import { AgentestError, PluginError } from './errors.js';
import type { AssertTapOptions, KernelHooks } from './hooks.js';
import { matches } from './select-cases.js';
import { checkTagsKnown, collectTags } from './case-tags.js';
import type { Agent, AgentRef } from './types/agent.js';
import type { RunPlan } from './types/run.js';
import type { Assertion, Suite, TestCase } from './types/test-case.js';

/**
 * Reads the suite once before any agent is called: every case kind has an executor, every assertion
 * type has a handler, and the `--run` filter selects something (the plan's `include` may then take
 * none of it); then every helper agent the selected cases name (a judge, a simulated user) is found.
 * Only the count is kept.
 */
export async function preflight(
  hooks: KernelHooks,
  assertTypes: readonly string[],
  plan: RunPlan,
  suite: Suite,
  resolveAgent: (ref: AgentRef) => Promise<Agent>,
): Promise<number> {
  const helpers = new HelperCheck(hooks, plan);
  // `""` (Yao's untyped assertion, an alias of `equals`) is accepted but never listed as a name to use.
  const knownAsserts = new Set(assertTypes.filter((type) => type !== '' && hooks.assert.get(type)?.isUsed()));
  let matched = 0;
  let selected = 0;
  const knownTags = new Set<string>();
  const check = (testCase: TestCase): void => {
    if (plan.tags) collectTags(knownTags, testCase);
    if (!matches(plan, testCase)) return;
    matched++;
    if (plan.include && !plan.include(testCase)) return;
    selected++;
    if (!hooks.execute.get(testCase.kind)?.isUsed()) {
      throw new AgentestError('NO_EXECUTOR', `${at(testCase)}: no plugin executes cases of kind "${testCase.kind}"`, {
        where: at(testCase),
      });
    }
    if (testCase.assert) checkAssertions(hooks, testCase, testCase.assert, 'assert', knownAsserts);
    for (const [c, checkpoint] of (testCase.checkpoints ?? []).entries())
      checkAssertions(hooks, testCase, checkpoint.assert, `checkpoints[${c}].assert`, knownAsserts);
    helpers.noteCase(testCase, at(testCase));
  };
  // A plain iterable is read without a promise per case (`for await` makes three).
  const cases = suite.cases();
  if (Symbol.asyncIterator in cases) for await (const testCase of cases) check(testCase);
  else for (const testCase of cases) check(testCase);
  if (plan.tags) checkTagsKnown(plan, knownTags);
  if (matched === 0) throw noCases(plan, suite);
  await helpers.resolveAll(resolveAgent);
  return selected;
}

/** What selected nothing: `--run`, `--tag`, both, or a suite without cases. */
function noCases(plan: RunPlan, suite: Suite): AgentestError {
  const flags = [
    ...(plan.filter ? [`--run ${plan.filter.source}`] : []),
    ...(plan.tags ? [...plan.tags.include, ...plan.tags.exclude.map((t) => `!${t}`)].map((t) => `--tag ${t}`) : []),
  ];
  if (!flags.length) return new AgentestError('NO_CASES', `${suite.name} holds no test case`, { where: suite.name });
  const where = plan.filter ? '--run' : '--tag';
  return new AgentestError('NO_CASES', `${flags.join(' ')} matched no case`, { where });
}

/** Every assertion has a handler and is written the way its handler accepts; `label` names the list. */
function checkAssertions(
  hooks: KernelHooks,
  testCase: TestCase,
  assertions: readonly Assertion[],
  label: string,
  knownAsserts: ReadonlySet<string>,
): void {
  assertions.forEach((assertion, i) => {
    const taps = hooks.assert.get(assertion.type)?.taps;
    if (!taps?.length) {
      const known = [...knownAsserts].sort().join(', ');
      throw new AgentestError(
        'NO_ASSERTION',
        `${at(testCase)}: no plugin handles assertion type "${assertion.type}"${didYouMean(assertion.type, [...knownAsserts])} (known: ${known})`,
        { where: at(testCase) },
      );
    }
    const problem = validateWith(taps[0]!, assertion);
    if (problem)
      throw new AgentestError(
        'ASSERTION_INVALID',
        `${at(testCase)}: ${label}[${i}] (${assertion.type || 'equals'}): ${problem} — correct the assertion; see "Assertions" in the docs`,
        { where: at(testCase) },
      );
  });
}

/**
 * What the tap that would judge an assertion says is wrong with how it is written; a throwing check
 * is the plugin's fault.
 */
function validateWith(tap: StoredTap & AssertTapOptions, assertion: Assertion): string | undefined {
  if (!tap.validate) return undefined;
  try {
    return tap.validate(assertion);
  } catch (error) {
    throw new PluginError(tap.name, `assert:${assertion.type} (validate)`, error);
  }
}

function at(testCase: TestCase): string {
  return testCase.source.line ? `${testCase.source.file}:${testCase.source.line}` : testCase.source.file;
}
