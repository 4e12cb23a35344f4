import type { DynamicCaseData, TestCase } from '@agentest/kernel';
import { goDuration } from '@agentest/common';

/**
 * A loaded case written back as one JSONL case object, fields in Yao's order (`id, input, expected,
 * assert, user, team, metadata, options, skip, timeout, tags, before, after, simulator, checkpoints,
 * max_turns`): what `--dry-run` prints, and loads again as the same case.
 */
export function toJsonlCase(testCase: TestCase): Record<string, unknown> {
  const data = (testCase.data ?? {}) as { before?: unknown; after?: unknown; dynamic?: DynamicCaseData };
  const out: Record<string, unknown> = { id: testCase.id };
  if (testCase.name !== undefined) out.name = testCase.name;
  if (testCase.input !== null && testCase.input !== undefined) out.input = testCase.input;
  const assert = testCase.assert;
  // `expected` alone loads as one equals assertion of it: write it back the way it was written.
  const onlyExpected = assert?.length === 1 && assert[0]!.type === 'equals' && assert[0]!.value === testCase.expected;
  if (testCase.expected !== undefined) out.expected = testCase.expected;
  if (assert?.length && !onlyExpected) out.assert = assert;
  if (testCase.user !== undefined) out.user = testCase.user;
  if (testCase.team !== undefined) out.team = testCase.team;
  if (testCase.metadata) out.metadata = testCase.metadata;
  if (testCase.options) out.options = testCase.options;
  if (testCase.skip) out.skip = true;
  if (testCase.todo) out.todo = true;
  if (testCase.timeoutMs !== undefined) out.timeout = goDuration(testCase.timeoutMs);
  if (testCase.tags?.length) out.tags = testCase.tags;
  if (data.before !== undefined) out.before = data.before;
  if (data.after !== undefined) out.after = data.after;
  if (data.dynamic) {
    const { use, connector, metadata } = data.dynamic.simulator;
    const options = { ...(Object.keys(metadata).length ? { metadata } : {}), ...(connector ? { connector } : {}) };
    out.simulator = { use, ...(Object.keys(options).length ? { options } : {}) };
    out.checkpoints = (testCase.checkpoints ?? []).map((c) => ({
      id: c.id,
      ...(c.description !== undefined ? { description: c.description } : {}),
      ...(c.assert.length ? { assert: c.assert } : {}),
      ...(c.after.length ? { after: c.after } : {}),
      ...(c.required ? {} : { required: false }),
    }));
    out.max_turns = data.dynamic.max_turns;
  }
  return out;
}
