import { redactSecrets } from '@agentest/kernel/secrets';
import { snapshotDiff } from './snapshot-diff.js';
import type { SnapshotCheck } from './snapshot-store.js';

/** A snapshot comparison as a verdict, worded the same for every form of snapshot. */
export interface SnapshotVerdict {
  pass: boolean;
  message?: string;
  expected?: unknown;
  actual?: unknown;
}

/**
 * What a check of snapshot `key` of case `caseId` means: a missing snapshot under CI and a mismatch
 * fail with the file to look at (a mismatch with the diff); a written or updated one passes saying so.
 * `what` names the compared value in the message (`output`, `value`).
 */
export function snapshotVerdict(
  check: SnapshotCheck,
  key: string,
  caseId: string,
  value: unknown,
  what = 'output',
): SnapshotVerdict {
  // The stored side holds secrets as `[redacted]` (see SnapshotStore.check): diff like against like.
  value = redactSecrets(value);
  if (check.status === 'missing')
    return {
      pass: false,
      message: `snapshot ${key} of case ${caseId} is not in ${check.file}, and CI is set, so it is not written; run with --update and commit the file`,
      actual: value,
    };
  if (check.status === 'mismatch')
    return {
      pass: false,
      message: `${what} does not match snapshot ${key} in ${check.file} (run with --update to accept it):\n${snapshotDiff(check.stored, value)}`,
      expected: check.stored,
      actual: value,
    };
  return { pass: true, ...(check.status === 'matched' ? {} : { message: `snapshot ${key} ${check.status}` }) };
}

/** Why a snapshot name cannot be used, or `undefined`: `#1`, `#2`… are kept for unnamed snapshots. */
export function snapshotNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || !name.trim())
    return `a snapshot name must be a non-empty string, got ${JSON.stringify(name)}`;
  if (/^#\d+$/.test(name))
    return `the snapshot name ${JSON.stringify(name)} is kept for unnamed snapshots (#1, #2…); choose another`;
  return undefined;
}
