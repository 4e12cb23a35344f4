import { existsSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

export const DEFAULT_INCLUDE = ['tests/**/*.test.{ts,js,mts}'];
/** A directory of test files with no `tests/` folder (`-i tests/`, as Vitest takes it): its own test files. */
const ANYWHERE = ['**/*.test.{ts,js,mts}'];
const IGNORE = ['**/node_modules/**', '**/dist/**', '**/.git/**'];
const TEST_FILE = /\.(test|spec)\.[cm]?[jt]s$/;
const CASES_FILE = /(^|\.)cases\.json$/;

/** The kit files one `-i` input names. */
export interface KitInput {
  /** The directory the input names (for a file: its directory); the suite's name. */
  root: string;
  casesFiles: string[];
  testFiles: string[];
}

/**
 * Recognises the inputs of agentest-kit mode: a directory holding `cases.json` and/or test files
 * matching `include` (by default `tests/**`, else, when it has neither, the test files anywhere in it);
 * a glob; a `cases.json` / `*.cases.json` file; a single test file. Anything else (a `.jsonl` file, a
 * message, a Yao script id) is left to other loaders.
 */
export async function discoverKitInput(
  input: string,
  cwd: string,
  include: readonly string[] = DEFAULT_INCLUDE,
): Promise<KitInput | undefined> {
  const path = resolve(cwd, input);
  if (existsSync(path)) {
    const stats = statSync(path);
    if (stats.isFile()) {
      const name = basename(path);
      if (CASES_FILE.test(name)) return { root: dirname(path), casesFiles: [path], testFiles: [] };
      if (TEST_FILE.test(name)) return { root: dirname(path), casesFiles: [], testFiles: [path] };
      return undefined;
    }
    if (!stats.isDirectory()) return undefined;
    const casesFiles = ['cases.json'].map((n) => resolve(path, n)).filter((p) => existsSync(p));
    let testFiles = await find(include, path);
    // agentest-kit's layout first (`cases.json` and `tests/`); without it, the default takes the folder's tests.
    if (!casesFiles.length && !testFiles.length && include === DEFAULT_INCLUDE) testFiles = await find(ANYWHERE, path);
    return casesFiles.length || testFiles.length ? { root: path, casesFiles, testFiles } : undefined;
  }
  // The glob library loads only for an input that is no file or folder.
  const { isDynamicPattern } = await import('tinyglobby');
  if (!isDynamicPattern(input)) return undefined;
  const matched = await find([input], cwd);
  const casesFiles = matched.filter((p) => CASES_FILE.test(basename(p)));
  const testFiles = matched.filter((p) => TEST_FILE.test(basename(p)));
  return casesFiles.length || testFiles.length ? { root: cwd, casesFiles, testFiles } : undefined;
}

async function find(patterns: readonly string[], cwd: string): Promise<string[]> {
  const { glob } = await import('tinyglobby');
  const files = await glob([...patterns], { cwd, absolute: true, ignore: IGNORE, onlyFiles: true, dot: false });
  return files.sort();
}
