import type { Suite, TestCase } from '@agentest/kernel';
import { hashString, mulberry32 } from '@agentest/common';
import { PERTURBATIONS, perturb, type Perturbation } from './perturb.js';

export interface FuzzOptions {
  /** Variants per case (`--fuzz N`). */
  variants: number;
  /** Fixes the draws (`--seed`); the same seed, case and variant always give the same input. */
  seed: number;
}

/** What a variant case carries in `metadata.fuzz`. */
export interface FuzzMark {
  /** The id of the case it varies. */
  of: string;
  variant: number;
  perturbation: Perturbation;
}

/** The separator of a variant's id: `T001~fuzz2` is variant 2 of `T001`. */
export const VARIANT_SEPARATOR = '~fuzz';

/** Why each case of the suite got no variants, by case id (`--fuzz` reports them rather than leave them out). */
export type NotFuzzed = Map<string, string>;

/**
 * The suite with, after each case whose input has text, `variants` copies of it whose last user
 * message is perturbed: variant k takes the k-th kind of perturbation in turn (typos, case,
 * whitespace, punctuation, look-alikes), drawn from a PRNG seeded by (seed, case id, k). Cases
 * without text to perturb (scripts, an empty input) run as they are, and `notFuzzed` gets why;
 * skipped ones are left alone.
 */
export function fuzzSuite(suite: Suite, options: FuzzOptions, notFuzzed: NotFuzzed = new Map()): Suite {
  return {
    ...suite,
    meta: { ...suite.meta, fuzz: { variants: options.variants, seed: options.seed } },
    cases: () => withVariants(suite.cases(), options, notFuzzed),
  };
}

async function* withVariants(
  cases: AsyncIterable<TestCase> | Iterable<TestCase>,
  options: FuzzOptions,
  notFuzzed: NotFuzzed,
): AsyncGenerator<TestCase> {
  for await (const testCase of cases) {
    yield testCase;
    if (testCase.skip || testCase.todo) continue;
    const at = fuzzTarget(testCase);
    if ('reason' in at) {
      notFuzzed.set(testCase.id, at.reason);
      continue;
    }
    for (let k = 1; k <= options.variants; k++) yield variant(testCase, at, k, options.seed);
  }
}

export function variant(testCase: TestCase, at: { index: number; text: string }, k: number, seed: number): TestCase {
  const perturbation = PERTURBATIONS[(k - 1) % PERTURBATIONS.length]!;
  const random = mulberry32(hashString(`${seed}\u0000${testCase.id}\u0000${k}`));
  let text = perturb(at.text, perturbation, random);
  // A perturbation that changed nothing (a text without letters to slip) adds a space, so every variant differs.
  if (text === at.text) text = `${text} `;
  const messages = testCase.messages.map((m, i) => (i === at.index ? { ...m, content: text } : m));
  const mark: FuzzMark = { of: testCase.id, variant: k, perturbation };
  return {
    ...testCase,
    id: `${testCase.id}${VARIANT_SEPARATOR}${k}`,
    ...(testCase.name ? { name: `${testCase.name} (${perturbation} ${k})` } : {}),
    input: typeof testCase.input === 'string' ? text : messages,
    messages,
    metadata: { ...testCase.metadata, fuzz: mark },
  };
}

/**
 * What a variant perturbs: the last user message when its content is text (a string; the text parts of
 * a multimodal one are left as they are), else why the case has nothing to perturb.
 */
function fuzzTarget(testCase: TestCase): { index: number; text: string } | { reason: string } {
  if (testCase.kind !== 'agent' && !testCase.messages.length)
    return { reason: `a ${testCase.kind} case: its code makes its own calls, there is no input message to perturb` };
  const { messages } = testCase;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'user') continue;
    if (typeof m.content !== 'string') return { reason: 'its last user message is not plain text (content parts)' };
    return m.content.trim() ? { index: i, text: m.content } : { reason: 'its last user message is empty' };
  }
  return { reason: 'it has no user message to perturb' };
}
