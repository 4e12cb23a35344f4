import { setSnapshotRunner, type SnapshotOutcome, type SnapshotRequest, type SnapshotRunner } from '@agentest/expect';
import { errorMessage } from '@agentest/kernel/errors';
import { type AssertionResult, type RunPlan, type Status, type TestCase } from '@agentest/kernel';
import { snapshotStoreOf, snapshotVerdict } from '@agentest/snapshot';
import { scopedRunner } from './scoped-runner.js';

const MATCHER = 'expect.toMatchSnapshot';

/**
 * One test run's `toMatchSnapshot` calls, answered with the run's snapshot store as the `snapshot`
 * assertion is (file beside the test file, `--update`, CI rule, obsolete entries, diff). Keys are the
 * test's id and the snapshot's name, or `#1`, `#2`… in call order. A failed comparison fails the test
 * when it ends, whether or not the test awaited it.
 */
export class KitSnapshots {
  private unnamed = 0;
  private readonly pending = new Set<Promise<unknown>>();
  private readonly failures: AssertionResult[] = [];
  private error?: string;

  constructor(
    private readonly plan: RunPlan,
    private readonly testCase: TestCase,
  ) {}

  readonly runner: SnapshotRunner = (request) => {
    // Numbered when asked, so unnamed snapshots keep their call order whatever order the checks end in.
    const key = request.name ?? `#${++this.unnamed}`;
    const checked = this.check(key, request.value);
    this.pending.add(checked);
    return checked;
  };

  /** The test's ending once every check has answered: a pass with a failed snapshot becomes a failure. */
  async settle<T extends { status: Status; error?: string }>(ending: T, failures: AssertionResult[]): Promise<T> {
    await Promise.allSettled(this.pending);
    for (const failure of this.failures)
      if (!failures.some((known) => known.type === MATCHER && known.message === failure.message))
        failures.push(failure);
    if (ending.status !== 'passed') return ending;
    if (this.error !== undefined) return { ...ending, status: 'error', error: this.error };
    const first = this.failures[0];
    return first ? { ...ending, status: 'failed', error: first.message } : ending;
  }

  private async check(key: string, value: unknown): Promise<SnapshotOutcome> {
    const store = snapshotStoreOf(this.plan);
    if (!store)
      return this.fail(
        'toMatchSnapshot: this run has no snapshot store (the snapshot plugin, @agentest/snapshot, is not loaded)',
      );
    try {
      const { source, id } = this.testCase;
      const verdict = snapshotVerdict(await store.check(source.file, id, key, value), key, id, value, 'value');
      if (!verdict.pass)
        this.failures.push({
          type: MATCHER,
          pass: false,
          message: verdict.message ?? `value does not match snapshot ${key}`,
          ...('expected' in verdict ? { expected: verdict.expected } : {}),
          actual: value,
        });
      return verdict;
    } catch (error) {
      return this.fail(`toMatchSnapshot: ${errorMessage(error)}`);
    }
  }

  private fail(error: string): SnapshotOutcome {
    this.error ??= error;
    return { error };
  }
}

/**
 * Runs a live test function (`runSuite`) with `runner` answering its `toMatchSnapshot` calls; such
 * functions share this thread's `expect`, so each call finds its test through the async context.
 */
export const withKitSnapshots = scopedRunner<SnapshotRequest, SnapshotOutcome>(setSnapshotRunner, {
  error: 'toMatchSnapshot ran outside an agentest test',
});
