import { percent, show } from '../format.js';
import { judging, misuse, subjects, type Matcher } from '../matcher.js';

/**
 * agentest-kit's AI matchers, read from the standard result an adapter's `evaluate` returns
 * (`structure_ok`, `keyword_hits`, `keyword_hit_rate`, `normalized_categories`, `raw`, …).
 * Where the result lacks the field a matcher needs, the matcher fails with or without `.not`
 * and says which field is missing: an absent measurement is never a pass.
 */
export const aiMatchers = {
  toHaveStructure: judging(subjects.result, (result: Record<string, unknown>) => {
    const why = typeof result.error === 'string' && result.error ? ` (error: ${result.error})` : '';
    return {
      pass: result.structure_ok === true,
      actual: result.structure_ok,
      expected: true,
      message: (negated) =>
        `expected structure_ok ${negated ? 'not ' : ''}to be true, got ${show(result.structure_ok)}${why}`,
    };
  }),

  /** Passes when any intent the result carries is `id`; see `intentsOf` for where it looks. */
  toHaveIntent: judging(subjects.result, (result: Record<string, unknown>, id: string) => {
    const intents = intentsOf(result);
    if (!intents) {
      return misuse(
        `toHaveIntent: the result carries no intent (looked at ${INTENT_FIELDS.join(', ')}); have the adapter's evaluate set normalized_categories`,
        result,
      );
    }
    return {
      pass: intents.includes(id),
      actual: intents,
      expected: id,
      message: (negated) =>
        `expected intent ${negated ? 'not ' : ''}to be ${show(id)}, got ${intents.length ? show(intents) : 'none'}`,
    };
  }),

  toHaveKeyword: judging(subjects.result, (result: Record<string, unknown>, keyword: string) => {
    const hits = result.keyword_hits;
    if (!Array.isArray(hits))
      return misuse(
        `toHaveKeyword: the result has no keyword_hits list (got ${show(hits)}); have the adapter's evaluate set it`,
        result,
      );
    return {
      pass: hits.includes(keyword),
      actual: hits,
      expected: keyword,
      message: (negated) => `expected keyword ${show(keyword)} ${negated ? 'not ' : ''}to be hit, hits: ${show(hits)}`,
    };
  }),

  /**
   * Searches the text of the response (`raw`, else `content`/`text`, else a string received), value by
   * value: key names and JSON punctuation never match.
   */
  toMention(received, word: string) {
    if (typeof word !== 'string' || word === '')
      misuse(`toMention needs a non-empty string, got ${show(word)}`, received);
    const response = responseOf(received);
    if (response === undefined)
      return misuse('toMention: the result holds no response to search (raw is empty; did the call fail?)', received);
    const texts = leaves(response);
    return {
      pass: texts.some((text) => text.includes(word)),
      actual: response,
      expected: word,
      message: (negated) =>
        `expected response ${negated ? 'not ' : ''}to mention ${show(word)}, response: ${show(response)}`,
    };
  },

  /** `keyword_hit_rate >= threshold` (inclusive). A null rate fails both ways. */
  toHitRate: judging(subjects.result, (result: Record<string, unknown>, threshold: number) => {
    if (typeof threshold !== 'number' || !(threshold >= 0 && threshold <= 1))
      misuse(`toHitRate needs a threshold between 0 and 1, got ${show(threshold)}`, result);
    const rate = result.keyword_hit_rate;
    if (typeof rate !== 'number' || Number.isNaN(rate)) {
      return misuse(`toHitRate: keyword_hit_rate is ${show(rate)} (no expected_keywords set?)`, result);
    }
    return {
      pass: rate >= threshold,
      actual: rate,
      expected: threshold,
      message: (negated) =>
        `expected keyword hit rate ${negated ? '<' : '>='} ${percent(threshold)}, got ${percent(rate)}`,
    };
  }),
} satisfies Record<string, Matcher>;

/**
 * Where the system's own intent can be: agentest-kit's `normalized_categories`, the `raw_intent` its
 * README adapters attach, and an `intent` inside the response. A top-level `intent` is left out on
 * purpose: adapters that spread the case into the result put the *expected* intent there.
 */
const INTENT_FIELDS = ['normalized_categories', 'raw_intent', 'raw.intent', 'content.intent'];

/** Every intent label the result carries, or undefined when it carries none at all. */
function intentsOf(result: Record<string, unknown>): string[] | undefined {
  const sources = [
    result.normalized_categories,
    result.raw_intent,
    field(result.raw, 'intent'),
    field(result.content, 'intent'),
  ];
  const present = sources.filter((s) => s !== undefined && s !== null);
  if (present.length === 0) return undefined;
  return [...new Set(present.flatMap((s) => (Array.isArray(s) ? s : [s])).map(String))];
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function responseOf(received: unknown): unknown {
  if (typeof received === 'string') return received === '' ? undefined : received;
  if (typeof received !== 'object' || received === null) return undefined;
  const result = received as Record<string, unknown>;
  for (const key of ['raw', 'content', 'text']) {
    const value = result[key];
    if (value !== undefined && value !== null && value !== '') return value;
  }
  return undefined;
}

/** The string and number values inside a response, at any depth. */
function leaves(value: unknown, out: string[] = [], seen = new WeakSet<object>()): string[] {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    out.push(String(value));
  else if (typeof value === 'object' && value !== null && !seen.has(value)) {
    seen.add(value);
    for (const inner of Object.values(value)) leaves(inner, out, seen);
  }
  return out;
}
