import { JSONPath } from 'jsonpath-plus';

/** Why a path with a script expression is refused: nothing in a test needs code inside a path. */
export const FILTERS_DISABLED = 'filter and script expressions ([?(...)], [(...)]) are disabled; select by key or index instead';

/** Marks "the path selects nothing", distinct from a selected `null`. */
export const NO_MATCH: unique symbol = Symbol('no match');

/**
 * Turns the path forms test authors write into JSONPath: `$.a.b` as is, `a.b`, `.a.b` and `a[0].b`
 * rooted at `$`, `[0]` as `$[0]`.
 */
export function normalisePath(path: string): string {
  const p = path.trim();
  if (p.startsWith('$')) return p;
  if (p.startsWith('.') || p.startsWith('[')) return `$${p}`;
  return `$.${p}`;
}

/**
 * Reports what is wrong with a path's syntax, or `undefined` when it is well formed. jsonpath-plus
 * silently returns odd results for malformed paths (`$.a[` selects `$.a`), so brackets and quotes
 * are checked here first.
 */
export function pathSyntaxError(path: string): string | undefined {
  if (!path.trim()) return 'the path is empty; use "$" for the whole output';
  let depth = 0;
  let quote: string | undefined;
  for (const ch of path) {
    if (quote) {
      if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") {
      if (depth === 0) return `quotes are only allowed inside brackets, e.g. $['a.b']`;
      quote = ch;
    } else if (ch === '[') depth++;
    else if (ch === ']' && --depth < 0) return 'a "]" has no matching "["';
  }
  if (quote) return `an unterminated ${quote} quote`;
  if (/\[\s*\??\(/.test(path.replace(/'[^']*'|"[^"]*"/g, "''"))) return FILTERS_DISABLED;
  if (depth > 0) return 'a "[" is not closed';
  if (/\.$/.test(path.trim()) && !/\.\.$/.test(path.trim())) return 'the path ends with "."';
  return undefined;
}

/**
 * Whether a path can select more than one value (wildcards, recursive descent, slices, unions,
 * filters). Such a path yields the list of its matches; a definite path yields the one value.
 */
function isIndefinite(path: string): boolean {
  return /\*|\.\.|\[\s*\?|\[[^\]]*[:,][^\]]*\]/.test(path.replace(/'[^']*'|"[^"]*"/g, "''"));
}

/**
 * Evaluates a path with script evaluation disabled: a filter (`[?(...)]`) throws, and that becomes a
 * failed assertion naming the problem. Returns `NO_MATCH` when a definite path selects nothing.
 */
export function queryPath(document: unknown, path: string): unknown {
  const jsonPath = normalisePath(path);
  const matches = JSONPath({ path: jsonPath, json: document as object, wrap: true, eval: false }) as unknown[];
  if (isIndefinite(jsonPath)) return matches;
  return matches.length === 0 ? NO_MATCH : matches.length === 1 ? matches[0] : matches;
}
