import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

// The package root, not just this folder: with source maps on, frames of the built `dist/` files are
// reported at their `src/` paths.
const OWN_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
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
    if (!path.startsWith(`${OWN_DIR}/`) && !path.includes('/node_modules/')) return path;
  }
  return undefined;
}
