import { RE2JS } from 're2js';

/** `/pattern/flags`, for authors used to JavaScript literals; only flags RE2 can honour. */
const LITERAL = /^\/([\s\S]+)\/([ims]*)$/;
const FLAG_BITS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL };
const CACHE_LIMIT = 500;
const cache = new Map<string, RE2JS | string>();

/**
 * Compiles a pattern with RE2 semantics, as Yao's Go `regexp` does: inline flags such as `(?i)` work,
 * lookaround and backreferences do not, and matching takes linear time, so a pattern like `(a+)+$`
 * cannot hang a run on a long output. Returns the compiled pattern, or the reason it is invalid.
 *
 * Assertions run once per case and run, usually with the same few patterns, so compiled patterns are
 * kept in a small cache.
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
  let bits = 0;
  for (const flag of flags) bits |= FLAG_BITS[flag]!;
  try {
    return RE2JS.compile(source, bits);
  } catch (error) {
    // re2js prefixes its messages with "error parsing regexp: "; keep only the reason.
    const reason = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    return `invalid regex pattern: ${reason}`;
  }
}
