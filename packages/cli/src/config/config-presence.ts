import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * cosmiconfig's meta config: files in the working directory that may add search places for every tool
 * (its `package.json` key is `cosmiconfig`).
 */
const META_PLACES = [
  'package.yaml',
  '.config/config.json',
  '.config/config.yaml',
  '.config/config.yml',
  '.config/config.js',
  '.config/config.ts',
  '.config/config.cjs',
  '.config/config.mjs',
];

/**
 * Whether cosmiconfig's search (strategy `project`, the given places) could find a config from `from`:
 * false only when none of the places exists in any folder it looks in, every `package.json` there lacks
 * the `name` key, and no meta config could add places. A run without a config then skips cosmiconfig
 * and its ~40 CommonJS modules; whenever the answer is true, cosmiconfig searches as before, so what it
 * finds and the errors it reports are unchanged.
 */
export function mayFindConfig(from: string, name: string, places: readonly string[]): boolean {
  const cwd = process.cwd();
  if (
    META_PLACES.some((place) => existsSync(join(cwd, place))) ||
    hasPackageKey(join(cwd, 'package.json'), 'cosmiconfig')
  )
    return true;
  for (const dir of projectFolders(resolve(from)))
    for (const place of places)
      if (place === 'package.json' ? hasPackageKey(join(dir, place), name) : existsSync(join(dir, place))) return true;
  return false;
}

/** The folders cosmiconfig's `project` strategy searches: up from `start`, to the first with a package file. */
function* projectFolders(start: string): Generator<string> {
  for (let dir = start; ; dir = dirname(dir)) {
    yield dir;
    if (existsSync(join(dir, 'package.json')) || existsSync(join(dir, 'package.yaml')) || dirname(dir) === dir) return;
  }
}

/** True unless the file is missing or is a JSON object whose `key` is absent or null (what cosmiconfig skips). */
function hasPackageKey(file: string, key: string): boolean {
  if (!existsSync(file)) return false;
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof value !== 'object' || value === null || (value as Record<string, unknown>)[key] != null;
  } catch {
    // Unreadable or not JSON: cosmiconfig reads it and reports what is wrong.
    return true;
  }
}
