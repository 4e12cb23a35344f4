import { AgentestError, type TestCase } from '@agentest/kernel';
import { parseDuration, parseJson, withoutUnit } from '@agentest/common';
import { unknownKey } from './case-keys.js';
import { caseRules, type CaseRules } from './case-rules.js';
import { caseSchema, FIELD_FIXES, isWellTypedCase } from './case-schema.js';
import { DYNAMIC_MODE_KEYS, parseDynamicFields } from './dynamic-fields.js';
import { InputShapeError, typeName } from './input-error.js';
import { equalsAssertion, parseAssertions } from './parse-assertions.js';
import { explainSchemaError, type Fail } from './schema-error.js';
import { tooDeep } from './nesting-depth.js';
import { normaliseInput } from './normalise-input.js';

/** Where a line comes from and where its relative `file://` paths start. */
export interface LineContext {
  /** The file as messages name it (relative to the working directory when inside it). */
  file: string;
  line: number;
  baseDir: string;
  /**
   * The line was read and accepted before, from the same unchanged file: its types and shapes are
   * known to be right, so only the work that builds the case is done again.
   */
  checked?: boolean;
  /** The suite's rules (extra keys, nesting limit, attachment policy); the defaults for `baseDir` when absent. */
  rules?: CaseRules;
  /** How messages name the case's place when it is no file line (`cases[2]`); `<file>:<line>` by default. */
  label?: string;
}

/** Yao's per-case hook fields, kept for the executor that runs them. */
const HOOK_FIELDS = ['before', 'after'] as const;

/**
 * One JSONL line → one `TestCase`, or an `INPUT_INVALID` error of the form
 * `<file>:<line>: <what is wrong> — <what to do>`. A `checked` line builds the same case without
 * the checks that already passed on it.
 */
export function parseCase(text: string, at: LineContext): TestCase {
  const fail: Fail = failAt(at);
  let raw: unknown;
  try {
    // Integers beyond 2^53 keep their source text, so that `expected` and assertion values compare exactly.
    raw = parseJson(text);
  } catch (error) {
    fail(
      `invalid JSON (${(error as Error).message})`,
      'write one complete JSON object per line; objects spread over several lines are not supported',
    );
  }
  const rules = at.rules ?? caseRules(at.baseDir);
  if (!at.checked) checkFields(raw, text, rules, fail);
  const value = raw as Record<string, unknown>;
  const id = value.id as string;

  // A suite that lists a dynamic key in `extraKeys` asks for it to be ignored: its cases stay static.
  const dynamic = ignoresDynamicMode(rules) ? undefined : parseDynamicFields(value, rules.defaultSimulator, fail);
  let messages;
  try {
    // A dynamic case without an input lets the simulator open the conversation.
    messages =
      dynamic && (value.input === undefined || value.input === null) ? [] : normaliseInput(value.input, rules.files);
  } catch (error) {
    if (!(error instanceof InputShapeError)) throw error;
    fail(
      `case "${id}": ${error.message}`,
      error.fix ?? 'see "Input Types" in the docs for the shapes an input can take',
    );
  }

  const testCase: TestCase = {
    id,
    kind: dynamic ? 'dynamic' : 'agent',
    input: value.input ?? null,
    messages: messages!,
    source: { file: at.file, line: at.line },
  };
  const expected = value.expected;
  if (expected !== undefined && expected !== null) testCase.expected = expected;
  const assertions =
    value.assert === undefined || value.assert === null
      ? undefined
      : parseAssertions(value.assert, fail, at.checked === true);
  if (assertions) testCase.assert = assertions;
  else if (testCase.expected !== undefined) testCase.assert = [equalsAssertion(value)];
  // Yao passes a static case that checks nothing; it still passes, but its result and the summary say so.
  if (!dynamic && !testCase.assert?.length) testCase.unasserted = true;
  copyOptionalFields(testCase, value, at, fail);
  if (dynamic) {
    testCase.data = { ...(testCase.data as Record<string, unknown> | undefined), dynamic: dynamic.data };
    testCase.checkpoints = dynamic.checkpoints;
  }
  return testCase;
}

/**
 * One case object, as a loader of another format (CSV, a database, code) holds it, → one `TestCase`,
 * with the checks and the input normalisation a JSONL line gets, and the same errors, naming
 * `where.label` or `<file>:<line>` (the source the case records). Relative `file://` paths start
 * at `where.baseDir` (default: the working directory).
 */
export function createCase(fields: unknown, where: Partial<LineContext> = {}): TestCase {
  const at: LineContext = {
    file: where.file ?? '<case>',
    line: where.line ?? 1,
    baseDir: where.baseDir ?? process.cwd(),
    ...(where.rules ? { rules: where.rules } : {}),
    label: where.label ?? (where.line === undefined ? (where.file ?? '<case>') : undefined),
  };
  const fail: Fail = failAt(at);
  let text: string | undefined;
  try {
    text = JSON.stringify(fields);
  } catch (error) {
    fail(`the case is not plain data (${(error as Error).message})`, 'give objects, arrays, strings and numbers');
  }
  if (text === undefined)
    fail(`expected a case object, got ${typeName(fields)}`, 'e.g. { id: "T001", input: "Hello" }');
  // The round trip gives the case its own copy of every value, as a line read from a file has.
  return parseCase(text, at);
}

function failAt(at: LineContext): Fail {
  return (problem, fix) => {
    const where = at.label ?? `${at.file}:${at.line}`;
    throw new AgentestError('INPUT_INVALID', `${where}: ${problem} — ${fix}`, { where });
  };
}

/** The fields a case may leave out: names, user and team, metadata, skip/todo, timeout and tags, Yao's hooks. */
function copyOptionalFields(testCase: TestCase, value: Record<string, unknown>, at: LineContext, fail: Fail): void {
  if (typeof value.name === 'string') testCase.name = value.name;
  if (typeof value.user === 'string') testCase.user = value.user;
  if (typeof value.team === 'string') testCase.team = value.team;
  if (value.metadata) testCase.metadata = value.metadata as Record<string, unknown>;
  if (value.options) testCase.options = value.options as Record<string, unknown>;
  if (value.skip === true) testCase.skip = true;
  if (value.todo === true) testCase.todo = true;
  if (typeof value.timeout === 'string') testCase.timeoutMs = caseTimeout(value.timeout, at, fail);
  if (Array.isArray(value.tags) && value.tags.length) testCase.tags = (value.tags as string[]).map((tag) => tag.trim());
  let extra: Record<string, unknown> | undefined;
  for (const key of HOOK_FIELDS) if (value[key] !== undefined) (extra ??= {})[key] = value[key];
  if (extra) testCase.data = extra;
}

function ignoresDynamicMode(rules: CaseRules): boolean {
  return DYNAMIC_MODE_KEYS.some((key) => rules.extraKeys.has(key));
}

function caseTimeout(timeout: string, at: LineContext, fail: Fail): number {
  try {
    return parseDuration(timeout, `${at.label ?? `${at.file}:${at.line}`}: field "timeout"`);
  } catch {
    const unitless = withoutUnit(timeout);
    if (unitless) fail(`field "timeout" has no unit: ${JSON.stringify(timeout)}`, unitless);
    return fail(`field "timeout" is not a duration: ${JSON.stringify(timeout)}`, FIELD_FIXES.timeout!);
  }
}

/**
 * A case is an object with a string `id`, an `input`, only known fields (or the suite's extra
 * keys), optional fields of the right types, and no deeper nesting than the suite allows.
 */
function checkFields(raw: unknown, text: string, rules: CaseRules, fail: Fail): void {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    fail(
      `expected a JSON object, got ${typeName(raw)}`,
      'write one case object per line, e.g. {"id": "T001", "input": "Hello"}',
    );
  }
  const value = raw as Record<string, unknown>;
  if (value.id === undefined || value.id === null) fail('missing required field "id"', FIELD_FIXES.id!);
  const deep = tooDeep(text, rules.maxDepth);
  if (deep) {
    const what = deep.field === undefined ? 'the case' : `field "${deep.field}"`;
    fail(
      `${what} nests more than ${rules.maxDepth} levels deep`,
      'flatten the value, or raise the jsonl.maxDepth option if such nesting is intended',
    );
  }
  const badKey = unknownKey(value, rules.extraKeys);
  if (badKey) fail(badKey.problem, badKey.fix);
  if (!isWellTypedCase(value)) explainSchemaError(caseSchema().safeParse(value), value, fail);
  const dynamic = value.checkpoints !== undefined && value.checkpoints !== null && !ignoresDynamicMode(rules);
  if (!dynamic && (value.input === undefined || value.input === null))
    fail(
      `case "${value.id as string}" is missing required field "input"`,
      'give the message to send, e.g. "input": "Hello"',
    );
}
