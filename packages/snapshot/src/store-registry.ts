import type { RunPlan } from '@agentest/kernel';
import type { SnapshotStore } from './snapshot-store.js';

const byPlan = new WeakMap<RunPlan, SnapshotStore>();

/**
 * The snapshot store of a run, found through its plan, for the other forms of snapshot: a script
 * test's `t.assert.MatchSnapshot` and a `test()` file's `toMatchSnapshot` use the same store (files,
 * `--update`, CI rule, obsolete entries) as the `snapshot` assertion. Two runs never share one.
 */
export function snapshotStoreOf(plan: RunPlan): SnapshotStore | undefined {
  return byPlan.get(plan);
}

export function attachSnapshotStore(plan: RunPlan, store: SnapshotStore): void {
  byPlan.set(plan, store);
}
