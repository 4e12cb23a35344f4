import type { AssertInput, Assertion, AssertionOutcome } from '@agentest/kernel';
import { ignoreProblem, withoutIgnored } from './ignore-paths.js';
import { snapshotVerdict } from './snapshot-verdict.js';
import type { SnapshotStore } from './snapshot-store.js';

export const SNAPSHOT_ASSERTION_TYPE = 'snapshot';

const KEYS = new Set(['type', 'name', 'ignore', 'message']);

/** What is wrong with how a `snapshot` assertion is written, as the full message, or `undefined`. */
export function validateSnapshotAssertion(assertion: Assertion): string | undefined {
  const extra = Object.keys(assertion).find((key) => !KEYS.has(key));
  if (extra) return `invalid snapshot assertion: "${extra}" is not a field of it (fields: ${[...KEYS].join(', ')})`;
  if (assertion.name !== undefined && (typeof assertion.name !== 'string' || !assertion.name.trim()))
    return `invalid snapshot assertion: "name" must be a non-empty string, got ${JSON.stringify(assertion.name)}`;
  if (typeof assertion.name === 'string' && /^#\d+$/.test(assertion.name))
    return `invalid snapshot assertion: "name" ${JSON.stringify(assertion.name)} is kept for unnamed snapshots (#1, #2…); choose another`;
  const problem = assertion.ignore === undefined ? undefined : ignoreProblem(assertion.ignore);
  return problem ? `invalid snapshot assertion: ${problem}` : undefined;
}

/**
 * `{"type": "snapshot", "name"?: "…", "ignore"?: ["$.id"]}`: the output must equal the case's stored
 * snapshot. Unnamed snapshots of a case are `#1`, `#2`… in the order they are written. With `ignore`
 * the output is read as JSON (a string output is parsed) and the fields the paths select are left out.
 */
export function snapshotChecker(store: () => SnapshotStore | undefined) {
  return async (assertion: Assertion, input: AssertInput): Promise<AssertionOutcome> => {
    const current = store();
    if (!current)
      return { pass: false, error: 'snapshot assertion used outside a run (the snapshot plugin has no store)' };
    const key = snapshotKey(assertion, input);
    if (!key)
      return {
        pass: false,
        error: 'this snapshot assertion has no place among the case\'s assertions; give it a "name"',
      };
    const value = snapshotValue(assertion, input.output);
    if ('error' in value) return { pass: false, error: value.error };
    const { testCase } = input;
    // A `--fuzz` variant is held to its case's snapshot, and never writes one of its own.
    const variantOf = fuzzedCase(testCase);
    const caseId = variantOf ?? testCase.id;
    const check = await current.check(testCase.source.file, caseId, key, value.value, { compareOnly: !!variantOf });
    if (check.status === 'unrecorded')
      return {
        pass: false,
        error: `snapshot ${key} of case ${caseId} is not recorded in ${check.file}, so this --fuzz variant of it cannot be compared; run the case without --fuzz first`,
      };
    return snapshotVerdict(check, variantOf ? `${key} of case ${caseId}` : key, caseId, value.value);
  };
}

/** The id of the case a `--fuzz` variant perturbs (its `metadata.fuzz.of`), or `undefined` for any other case. */
function fuzzedCase(testCase: AssertInput['testCase']): string | undefined {
  const fuzz = testCase.metadata?.fuzz as { of?: unknown } | undefined;
  return typeof fuzz?.of === 'string' ? fuzz.of : undefined;
}

/** The assertion's name, or `#n` for the n-th unnamed snapshot of the case. */
function snapshotKey(assertion: Assertion, input: AssertInput): string | undefined {
  if (typeof assertion.name === 'string') return assertion.name;
  const unnamed = (input.testCase.assert ?? []).filter(
    (a) => a.type === SNAPSHOT_ASSERTION_TYPE && a.name === undefined,
  );
  const index = unnamed.indexOf(assertion);
  return index < 0 ? undefined : `#${index + 1}`;
}

function snapshotValue(assertion: Assertion, output: unknown): { value: unknown } | { error: string } {
  const ignore = assertion.ignore as string[] | undefined;
  if (!ignore?.length) return { value: output === undefined ? null : output };
  let json = output;
  if (typeof output === 'string') {
    try {
      json = JSON.parse(output);
    } catch {
      return { error: `snapshot with "ignore" needs JSON output, got text that is not JSON: ${output.slice(0, 120)}` };
    }
  }
  return { value: withoutIgnored(json, ignore) };
}
