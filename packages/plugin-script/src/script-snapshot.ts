import { errorMessage } from '@agentest/kernel/errors';
import { type RunPlan, type TestCase } from '@agentest/kernel';
import { snapshotStoreOf, snapshotVerdict, type SnapshotVerdict } from '@agentest/snapshot';

/** What `t.assert.MatchSnapshot(value, name?)` sends to the main thread: the snapshot's key and the value. */
export interface SnapshotAsk {
  key: string;
  value: unknown;
}

/** The verdict the script's thread gets back, or why there is none. */
export type SnapshotAnswer = SnapshotVerdict | { pass: false; error: string };

export type ScriptSnapshot = (ask: SnapshotAsk) => Promise<SnapshotAnswer>;

/**
 * Compares a script test's `t.assert.MatchSnapshot` values with the run's snapshot store, as the
 * `snapshot` assertion does: the test file's `__snapshots__/<file>.snap.jsonl`, keyed by the test's
 * name and the snapshot's name (or `#1`, `#2`… for unnamed ones, in call order).
 */
export function scriptSnapshot(plan: RunPlan, testCase: TestCase): ScriptSnapshot {
  return async ({ key, value }) => {
    const store = snapshotStoreOf(plan);
    if (!store)
      return {
        pass: false,
        error:
          't.assert.MatchSnapshot: this run has no snapshot store (the snapshot plugin, @agentest/snapshot, is not loaded)',
      };
    try {
      const check = await store.check(testCase.source.file, testCase.id, key, value);
      return snapshotVerdict(check, key, testCase.id, value, 'value');
    } catch (error) {
      return { pass: false, error: `t.assert.MatchSnapshot: ${errorMessage(error)}` };
    }
  };
}
