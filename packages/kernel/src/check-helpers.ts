import type { StoredTap } from './call-taps.js';
import { AgentestError, errorMessage, PluginError } from './errors.js';
import type { AssertTapOptions, ExecuteTapOptions, HelperUse, KernelHooks } from './hooks.js';
import type { Agent, AgentRef } from './types/agent.js';
import type { RunPlan } from './types/run.js';
import type { Assertion, TestCase } from './types/test-case.js';

/** A helper agent and the first case that names it, so an unknown one is reported where it is written. */
interface HelperSighting extends HelperUse {
  caseId: string;
  where: string;
}

/**
 * The agents the selected cases will call besides the one under test (judges, simulated users), as the
 * plugins that call them declare: each is resolved once before any case runs, so an id written wrongly
 * is a configuration error naming the case's file and line, not an error in every case that uses it.
 */
export class HelperCheck {
  private readonly seen = new Map<string, HelperSighting>();

  constructor(
    private readonly hooks: KernelHooks,
    private readonly plan: RunPlan,
  ) {}

  /** Notes the helpers a case's kind and its assertions (`assert` and every checkpoint's) will call. */
  noteCase(testCase: TestCase, where: string): void {
    const executor = this.hooks.execute.get(testCase.kind)?.taps[0] as (StoredTap & ExecuteTapOptions) | undefined;
    if (executor?.helpers)
      this.note(
        declared(executor, `execute:${testCase.kind}`, () => executor.helpers!(testCase, this.plan)),
        testCase,
        where,
      );
    const { assert = [], checkpoints } = testCase;
    const assertions = checkpoints?.length ? [...assert, ...checkpoints.flatMap((c) => c.assert)] : assert;
    for (const assertion of assertions) this.noteAssertion(assertion, testCase, where);
  }

  /** Resolves every helper noted, in the order first seen; the first that cannot be found stops the run. */
  async resolveAll(resolveAgent: (ref: AgentRef) => Promise<Agent>): Promise<void> {
    for (const helper of this.seen.values()) {
      try {
        await resolveAgent(helper.ref);
      } catch (error) {
        throw new AgentestError(
          'HELPER_NOT_FOUND',
          `${helper.where}: case "${helper.caseId}": the ${helper.role} ${helper.use} cannot be found: ${errorMessage(error)}`,
          { where: helper.where },
        );
      }
    }
  }

  private noteAssertion(assertion: Assertion, testCase: TestCase, where: string): void {
    const tap = this.hooks.assert.get(assertion.type)?.taps[0] as (StoredTap & AssertTapOptions) | undefined;
    if (tap?.helpers)
      this.note(
        declared(tap, `assert:${assertion.type}`, () => tap.helpers!(assertion)),
        testCase,
        where,
      );
  }

  private note(helpers: HelperUse[], testCase: TestCase, where: string): void {
    for (const helper of helpers) {
      const key = JSON.stringify([helper.ref.id, helper.ref.connector ?? '', helper.ref.path ?? '']);
      if (!this.seen.has(key)) this.seen.set(key, { ...helper, caseId: testCase.id, where });
    }
  }
}

/** What a tap says its case or assertion will call; a throwing declaration is the plugin's fault. */
function declared(tap: StoredTap, hook: string, helpers: () => HelperUse[]): HelperUse[] {
  try {
    return helpers();
  } catch (error) {
    throw new PluginError(tap.name, `${hook} (helpers)`, error);
  }
}
