import { re2 } from '@agentest/common';
import type { RE2JS } from 're2js';

/** `/pattern/flags`, for authors used to JavaScript literals; only flags RE2 can honour. */
const LITERAL = /^\/([\s\S]+)\/([ims]*)$/;
const FLAGS = { i: 'CASE_INSENSITIVE', m: 'MULTILINE', s: 'DOTALL' } as const;
const CACHE_LIMIT = 500;
const cache = new Map<string, RE2JS | string>();

/**
 * Compiles a pattern with RE2 semantics, as Yao's Go `regexp` does: inline flags such as `(?i)` work,
 * lookaround and backreferences do not, and matching takes linear time, so a pattern like `(a+)+$`
 * cannot hang a run on a long output. Returns the compiled pattern, or the reason it is invalid.
 *
 * Assertions run once per case and run, usually with the same few patterns, so compiled patterns are
 * kept in a small cache. RE2 itself is loaded before the run by `preloadRe2` (see regex-preload.ts).
 */
export function compileRegex(pattern: string): RE2JS | string {
  let compiled = cache.get(pattern);
  if (compiled === undefined) {
    compiled = compile(pattern);
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(pattern, compiled);
  }
  return compiled;
}

function compile(pattern: string): RE2JS | string {
  const literal = LITERAL.exec(pattern);
  const [source, flags] = literal ? [literal[1]!, literal[2]!] : [pattern, ''];
  const RE2 = re2();
  let bits = 0;
  for (const flag of flags) bits |= RE2[FLAGS[flag as keyof typeof FLAGS]];
  try {
    return RE2.compile(source, bits);
  } catch (error) {
    // re2js prefixes its messages with "error parsing regexp: "; keep only the reason.
    const reason = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    return `invalid regex pattern: ${reason}`;
  }
}
