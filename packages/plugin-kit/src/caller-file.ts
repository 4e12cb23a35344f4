import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const FRAME = /(?:\(|at )((?:file:\/\/)?\/[^():]+|[A-Za-z]:\\[^():]+):\d+:\d+\)?$/;

/**
 * Where this package's own frames are. Its code lives in src/ and dist/ (with source maps on, frames of
 * the built dist/ files are reported at their src/ paths), or in one folder of bundle chunks: the folder
 * this file's own frame is in is skipped as well. Read from a stack, not `import.meta.url`, which a
 * bundle may set to where the file was before bundling.
 */
const OWN_DIRS = ((): string[] => {
  const own = framePath(new Error().stack?.split('\n')[1] ?? '');
  if (!own) return [];
  const packageRoot = dirname(dirname(own));
  return [`${packageRoot}/src/`, `${packageRoot}/dist/`, `${dirname(own)}/`];
})();

/**
 * The file that called into this package, read from the stack: the test file behind a main-thread
 * `test()` call, so its registrations get ids that survive filtering and reordering.
 */
export function callerFile(): string | undefined {
  const stack = new Error().stack?.split('\n').slice(1) ?? [];
  for (const line of stack) {
    const path = framePath(line);
    if (!path) continue;
    if (!OWN_DIRS.some((dir) => path.startsWith(dir)) && !path.includes('/node_modules/')) return path;
  }
  return undefined;
}

function framePath(line: string): string | undefined {
  const match = FRAME.exec(line.trim());
  if (!match) return undefined;
  return match[1]!.startsWith('file://') ? fileURLToPath(match[1]!) : match[1]!;
}
