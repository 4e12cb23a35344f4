import { extractJson } from '@agentest/plugin-assert';

/** How much of an unreadable reply is quoted: enough to see what went wrong, not a whole essay. */
const QUOTE_LIMIT = 500;

/** One judge reply, read: a verdict with its reason and the parsed object, or why it is none. */
export type ReadVerdict =
  { passed: boolean; reason: string; response: Record<string, unknown> } | { unreadable: string };

/**
 * Reads a judge's reply as Yao does (`parseValidatorResponse`): the JSON inside the text (fenced,
 * bare, or YAML), which must be an object with a boolean `passed`; `reason` is kept when it is a
 * string, and every other key (`score`, `suggestions`) is kept but never changes the verdict.
 *
 * Unlike Yao, a reply that is not such an object is not a failure: it is *unreadable*, quoted in
 * the reason, so the assertion becomes an error rather than a verdict the judge never gave.
 */
export function readVerdict(text: string): ReadVerdict {
  if (!text.trim()) return { unreadable: 'the judge answered nothing' };
  const parsed = extractJson(text);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return { unreadable: `the judge's reply is not a JSON object: ${quote(text)}` };
  const response = parsed as Record<string, unknown>;
  if (typeof response.passed !== 'boolean')
    return { unreadable: `the judge's reply has no boolean "passed": ${quote(text)}` };
  return { passed: response.passed, reason: typeof response.reason === 'string' ? response.reason : '', response };
}

function quote(text: string): string {
  const trimmed = text.trim();
  const cut = trimmed.length > QUOTE_LIMIT ? `${trimmed.slice(0, QUOTE_LIMIT)}… (${trimmed.length} chars)` : trimmed;
  return JSON.stringify(cut);
}
