import { didYouMean } from '@agentest/kernel/errors';

/**
 * The keys a case may carry. Yao's own decoder ignores unknown keys, so a typo such as `"expect"`
 * for `expected` or `"asert"` for `assert` turns a case into one that checks nothing and passes.
 * Here an unknown key is an error; custom data belongs under `metadata`, and a team whose suites
 * carry other keys lists them in the `extraKeys` option.
 */
export const CASE_KEYS = [
  'id',
  'name',
  'input',
  'expected',
  'assert',
  'user',
  'team',
  'metadata',
  'options',
  'skip',
  'todo',
  'timeout',
  'tags',
  'before',
  'after',
  'simulator',
  'checkpoints',
  'max_turns',
] as const;

const KNOWN: ReadonlySet<string> = new Set(CASE_KEYS);

/** What is wrong with a key, and what to do, for the loader to report at `file:line`. */
export interface KeyProblem {
  problem: string;
  fix: string;
}

/**
 * The first key of `value` that is neither a case key nor listed in `extra`. One `Set` lookup per
 * key: this runs on every line of a large suite.
 */
export function unknownKey(value: Record<string, unknown>, extra: ReadonlySet<string>): KeyProblem | undefined {
  for (const key in value) {
    if (KNOWN.has(key) || extra.has(key)) continue;
    const known = [...CASE_KEYS, ...extra];
    return {
      problem: `unknown field "${key}"${didYouMean(key, known)}`,
      fix: `put custom data under "metadata", or list the key in the jsonl.extraKeys option; case fields: ${CASE_KEYS.join(', ')}`,
    };
  }
  return undefined;
}
