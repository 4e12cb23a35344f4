import { AssertionError } from './assertion-error.js';

/** What a snapshot runner is asked: the value, and the snapshot's name (unnamed ones are numbered by the runner). */
export interface SnapshotRequest {
  name?: string;
  value: unknown;
}

/** The comparison with the stored snapshot, or why there was none. */
export type SnapshotOutcome =
  { pass: boolean; message?: string; expected?: unknown; actual?: unknown } | { error: string };

export type SnapshotRunner = (request: SnapshotRequest) => Promise<SnapshotOutcome>;

let runner: SnapshotRunner | undefined;

/**
 * Sets who keeps the snapshots `toMatchSnapshot` compares with (agentest's test runner does, for
 * each test it runs, with the run's snapshot files). Returns the runner it replaced.
 */
export function setSnapshotRunner(next: SnapshotRunner | undefined): SnapshotRunner | undefined {
  const previous = runner;
  runner = next;
  return previous;
}

/**
 * `expect(value).toMatchSnapshot(name?)`: the value must equal the test's stored snapshot of that
 * name, or `#1`, `#2`… for unnamed ones in call order. The store lives with the run, so the check
 * is asynchronous: awaited, a mismatch throws here; not awaited, the runner still fails the test
 * when it ends. A name such as `#2` is kept for unnamed snapshots.
 */
export async function matchSnapshot(received: unknown, negated: boolean, name: unknown): Promise<void> {
  if (negated) throw new TypeError('not.toMatchSnapshot is not a check: a snapshot either matches or is updated');
  if (name !== undefined && (typeof name !== 'string' || !name.trim()))
    throw new TypeError(`toMatchSnapshot(name?): the name must be a non-empty string, got ${String(name)}`);
  if (typeof name === 'string' && /^#\d+$/.test(name))
    throw new TypeError(`toMatchSnapshot: the name "${name}" is kept for unnamed snapshots (#1, #2…); choose another`);
  if (!runner)
    throw new Error('toMatchSnapshot: no snapshot store here; run the test with agentest (a test() file or runSuite)');
  const value = received === undefined ? null : received;
  const outcome = await runner({ ...(name !== undefined ? { name: name as string } : {}), value });
  if ('error' in outcome) throw new Error(outcome.error);
  if (outcome.pass) return;
  throw new AssertionError(outcome.message ?? 'value does not match its snapshot', {
    matcher: 'toMatchSnapshot',
    ...('expected' in outcome ? { expected: outcome.expected } : {}),
    actual: value,
  });
}
