import { JSONPath } from 'jsonpath-plus';
import { misuse } from './matcher.js';

/**
 * Runs a JSONPath query with jsonpath-plus's safe evaluator. Paths may omit the root: `data.id` and
 * `.data.id` mean `$.data.id`, as assertion files commonly write them.
 */
export function queryJsonPath(json: unknown, path: string): { path: string; matches: unknown[] } {
  const normalized = normalizePath(path.trim());
  if (json === null || json === undefined || typeof json !== 'object') return { path: normalized, matches: [] };
  try {
    const matches = JSONPath({ path: normalized, json: json as object, wrap: true, eval: 'safe' }) as
      unknown[] | undefined;
    return { path: normalized, matches: matches ?? [] };
  } catch (error) {
    return misuse(
      `invalid JSONPath ${JSON.stringify(path)}: ${error instanceof Error ? error.message : String(error)}`,
      json,
    );
  }
}

export function normalizePath(path: string): string {
  if (path.startsWith('$')) return path;
  if (path.startsWith('.') || path.startsWith('[')) return `$${path}`;
  return `$.${path}`;
}
