import { JSONPath } from 'jsonpath-plus';

/** What an ignored field holds in a snapshot, so the file keeps the value's shape and says what was left out. */
export const IGNORED = '[ignored]';

/** `id`, `.id` and `$.id` all mean `$.id`, as assertion files commonly write paths. */
export function normalisePath(path: string): string {
  const trimmed = path.trim();
  if (trimmed.startsWith('$')) return trimmed;
  if (trimmed.startsWith('.') || trimmed.startsWith('[')) return `$${trimmed}`;
  return `$.${trimmed}`;
}

/** What is wrong with a list of JSONPaths, or `undefined` when every one of them parses. */
export function ignoreProblem(ignore: unknown): string | undefined {
  if (!Array.isArray(ignore) || ignore.some((path) => typeof path !== 'string' || !path.trim()))
    return `"ignore" must be a list of JSONPath strings such as ["$.id", "$.created_at"], got ${JSON.stringify(ignore)}`;
  for (const path of ignore as string[]) {
    try {
      JSONPath({ path: normalisePath(path), json: {}, eval: 'safe' });
    } catch (error) {
      return `"ignore" has an invalid JSONPath ${JSON.stringify(path)}: ${(error as Error).message}`;
    }
  }
  return undefined;
}

/**
 * A copy of `value` with every field one of `paths` selects replaced by `[ignored]`. The value is
 * never changed in place: the output also goes into the case's result and to the other assertions.
 */
export function withoutIgnored(value: unknown, paths: readonly string[]): unknown {
  if (value === null || typeof value !== 'object' || !paths.length) return value;
  const copy = structuredClone(value) as object;
  for (const path of paths) {
    const hits = JSONPath({ path: normalisePath(path), json: copy, resultType: 'all', eval: 'safe' }) as
      { parent: Record<string | number, unknown> | null; parentProperty: string | number | null }[] | undefined;
    for (const { parent, parentProperty } of hits ?? []) {
      // The root itself has no parent: ignoring `$` would ignore everything, which no snapshot wants.
      if (parent && parentProperty !== null) parent[parentProperty] = IGNORED;
    }
  }
  return copy;
}
