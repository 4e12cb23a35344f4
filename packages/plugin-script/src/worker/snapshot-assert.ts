import type { SnapshotAnswer, SnapshotAsk } from '../script-snapshot.js';
import type { AssertionFailure } from './assert.js';
import { cloneable } from './describe.js';

/** Asks the main thread to compare one value with its snapshot; blocks until it answers. */
export type SnapshotCall = (ask: SnapshotAsk) => SnapshotAnswer;

/**
 * `t.assert.MatchSnapshot(value, name?)`: the value must equal the test's stored snapshot of that
 * name, or `#1`, `#2`… for unnamed ones in the order the test makes them. The store on the main thread
 * writes, updates or fails exactly as for the `snapshot` assertion; a failure is recorded and the
 * test goes on, like every `t.assert` method.
 */
export function matchSnapshot(
  ask: SnapshotCall,
  onFailure: (failure: AssertionFailure) => void,
): (value?: unknown, name?: unknown) => boolean {
  let unnamed = 0;
  return (value?: unknown, name?: unknown) => {
    const problem = nameProblem(name);
    if (problem) {
      onFailure({ type: 'MatchSnapshot', message: problem });
      return false;
    }
    const key = name === undefined ? `#${++unnamed}` : (name as string);
    const copy = value === undefined ? null : cloneable(value);
    const answer = ask({ key, value: copy });
    if (answer.pass) return true;
    onFailure({
      type: 'MatchSnapshot',
      ...('expected' in answer ? { expected: answer.expected } : {}),
      actual: copy,
      message: 'error' in answer ? answer.error : (answer.message ?? `value does not match snapshot ${key}`),
    });
    return false;
  };
}

/** The same rule as the `snapshot` assertion's `name`: `#1`, `#2`… are kept for unnamed snapshots. */
function nameProblem(name: unknown): string | undefined {
  if (name === undefined) return undefined;
  if (typeof name !== 'string' || !name.trim())
    return `MatchSnapshot: the name must be a non-empty string, got ${JSON.stringify(name) ?? String(name)}`;
  if (/^#\d+$/.test(name))
    return `MatchSnapshot: the name ${JSON.stringify(name)} is kept for unnamed snapshots (#1, #2…); choose another`;
  return undefined;
}
