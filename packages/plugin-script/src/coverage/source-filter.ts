import { isAbsolute, relative, sep } from 'node:path';
import picomatch from 'picomatch';
import { DEFAULT_COVERAGE_EXCLUDE } from './coverage-options.js';

/**
 * Which source files count: under `root`, matching an `include` glob (default: any) and no `exclude`
 * glob (default: tests, dependencies, declarations). Globs match the path relative to `root`.
 */
export function sourceFilter(
  root: string,
  include: readonly string[] = ['**'],
  exclude: readonly string[] = DEFAULT_COVERAGE_EXCLUDE,
): (file: string) => boolean {
  const included = picomatch([...include], { dot: true });
  const excluded = picomatch([...exclude], { dot: true });
  return (file) => {
    if (!isAbsolute(file)) return false;
    const path = relative(root, file);
    if (!path || path.startsWith('..') || isAbsolute(path)) return false;
    const posix = path.split(sep).join('/');
    return included(posix) && !excluded(posix);
  };
}
