import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

// This package's code lives in src/ and dist/; with source maps on, frames of the built dist/ files
// are reported at their src/ paths, so both are skipped.
const PACKAGE_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const OWN_DIRS = [`${PACKAGE_ROOT}/src/`, `${PACKAGE_ROOT}/dist/`];
const FRAME = /(?:\(|at )((?:file:\/\/)?\/[^():]+|[A-Za-z]:\\[^():]+):\d+:\d+\)?$/;

/**
 * The file that called into this package, read from the stack: the test file behind a main-thread
 * `test()` call, so its registrations get ids that survive filtering and reordering.
 */
export function callerFile(): string | undefined {
  const stack = new Error().stack?.split('\n').slice(1) ?? [];
  for (const line of stack) {
    const match = FRAME.exec(line.trim());
    if (!match) continue;
    const path = match[1]!.startsWith('file://') ? fileURLToPath(match[1]!) : match[1]!;
    if (!OWN_DIRS.some((dir) => path.startsWith(dir)) && !path.includes('/node_modules/')) return path;
  }
  return undefined;
}
