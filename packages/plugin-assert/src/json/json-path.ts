import { carryExactText, exactText } from '@agentest/common';
import { JSONPath } from 'jsonpath-plus';

/** Why a path with a script expression is refused: nothing in a test needs code inside a path. */
export const FILTERS_DISABLED =
  'filter and script expressions ([?(...)], [(...)]) are disabled; select by key or index instead';

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

const SYNTAX_CACHE_LIMIT = 500;
const syntaxCache = new Map<string, string | undefined>();

/**
 * Reports what is wrong with a path's syntax, or `undefined` when it is well formed. jsonpath-plus
 * silently returns odd results for malformed paths (`$.a[` selects `$.a`), so brackets and quotes
 * are checked here first. A path is checked before the run and again at each use, usually the same
 * few paths, so the answers for the paths seen recently are remembered.
 */
export function pathSyntaxError(path: string): string | undefined {
  const known = syntaxCache.get(path);
  if (known !== undefined || syntaxCache.has(path)) return known;
  const problem = syntaxProblem(path);
  if (syntaxCache.size >= SYNTAX_CACHE_LIMIT) syntaxCache.delete(syntaxCache.keys().next().value!);
  syntaxCache.set(path, problem);
  return problem;
}

function syntaxProblem(path: string): string | undefined {
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
  // jsonpath-plus reads a quoted `['?(…)']` or `['(…)']` as the expression itself, so quotes do not hide one.
  if (/\[\s*['"]?\s*\??\(/.test(path)) return FILTERS_DISABLED;
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
 * Whether a selection holds no node: a definite path that matched nothing, or an indefinite one
 * whose list of matches is empty (a definite path may select an empty array: that is a node).
 */
export function selectsNothing(selected: unknown, path: string): boolean {
  return (
    selected === NO_MATCH || (Array.isArray(selected) && selected.length === 0 && isIndefinite(normalisePath(path)))
  );
}

/**
 * Evaluates a path with script evaluation disabled: a filter (`[?(...)]`) throws, and that becomes a
 * failed assertion naming the problem. Returns `NO_MATCH` when a definite path selects nothing.
 */
export function queryPath(document: unknown, path: string): unknown {
  const jsonPath = normalisePath(path);
  const keys = document !== null && typeof document === 'object' ? dottedKeys(jsonPath) : null;
  if (keys) return followKeys(document, keys);
  const matches = JSONPath({ path: jsonPath, json: document as object, wrap: true, eval: false }) as unknown[];
  if (isIndefinite(jsonPath)) {
    if (matches.some(isBigInteger)) carryTexts(document, jsonPath, matches);
    return matches;
  }
  return matches.length === 0 ? NO_MATCH : matches.length === 1 ? matches[0] : matches;
}

/** An integer beyond 2^53: only such numbers may carry a source text (see the kernel's `parseJson`). */
export function isBigInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value);
}

interface Match {
  parent: unknown;
  parentProperty: string | number;
}

function matchesOf(document: unknown, jsonPath: string): Match[] {
  return JSONPath({ path: jsonPath, json: document as object, wrap: true, eval: false, resultType: 'all' }) as Match[];
}

/** The list of an indefinite path's matches is new: it gets the source texts its big integers had. */
function carryTexts(document: unknown, jsonPath: string, matches: unknown[]): void {
  matchesOf(document, jsonPath).forEach((match, i) => carryExactText(match.parent, match.parentProperty, matches, i));
}

/** The source text of the big integer a definite path selects, if it was parsed from text. */
export function selectedText(document: unknown, path: string): string | undefined {
  const [match, more] = matchesOf(document, normalisePath(path));
  return match && !more ? exactText(match.parent, match.parentProperty) : undefined;
}

/** `$.name.name…` with plain identifier names: the paths most tests use. */
const DOTTED = /^\$(?:\.[A-Za-z_][A-Za-z0-9_]*)+$/;
const DOTTED_CACHE_LIMIT = 500;
const dottedCache = new Map<string, string[] | null>();

/** The names of a dotted path, or `null` for any other path; remembered for the paths seen recently. */
function dottedKeys(jsonPath: string): string[] | null {
  let keys = dottedCache.get(jsonPath);
  if (keys === undefined) {
    keys = DOTTED.test(jsonPath) ? jsonPath.slice(2).split('.') : null;
    if (dottedCache.size >= DOTTED_CACHE_LIMIT) dottedCache.delete(dottedCache.keys().next().value!);
    dottedCache.set(jsonPath, keys);
  }
  return keys;
}

/**
 * A dotted path evaluated directly, as jsonpath-plus follows a plain name: only a truthy value's own
 * property (so `$.s.length` of a string is its length, and `$.a.b` below `0` or `""` matches
 * nothing). Skips parsing the path and building match records once per assertion.
 */
function followKeys(document: unknown, keys: readonly string[]): unknown {
  let value = document;
  for (const key of keys) {
    if (!value || !Object.hasOwn(value as object, key)) return NO_MATCH;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
