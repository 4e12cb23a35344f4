import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCachedScript } from './cached-script.js';

/**
 * The bundle's one script (dist/bundle/agentest.cjs, built by scripts/bundle.mjs): the `agentest` command and the
 * `@agentest/test` and `@agentest/test/kit` entries, each part initialised when first asked for. It is loaded
 * once per process: the command and a config that imports `@agentest/test` share one kernel (its classes, hook
 * blocks and registries), because both come through this module.
 */
export interface Bundle {
  command(): { runCommand(args: readonly string[]): Promise<number> };
  index(): Record<string, unknown>;
  kit(): Record<string, unknown>;
}

export const BUNDLE_SCRIPT = fileURLToPath(new URL('./bundle/agentest.cjs', import.meta.url));

let bundle: Bundle | undefined;

export function loadBundle(): Bundle {
  return (bundle ??= load());
}

function load(): Bundle {
  // With source maps on (DEBUG=agentest, or --enable-source-maps), stack traces name the TypeScript sources:
  // Node maps what `require` loads, not what `vm.Script` compiles. Slower, and only when debugging.
  if (process.sourceMapsEnabled) return createRequire(import.meta.url)(BUNDLE_SCRIPT) as Bundle;
  const script = loadCachedScript<Bundle>(BUNDLE_SCRIPT, cacheDirs);
  // Saved at exit, so the cache holds what the run compiled, not only what starting it did.
  if (script.cache !== 'used') process.once('exit', script.saveCache);
  return script.exports;
}

/**
 * Beside the script (where the build puts the cache it made); when that folder is read-only, the project's
 * `node_modules/.cache/agentest`. Looked for only when the first has no cache for this Node.
 */
function* cacheDirs(): Generator<string> {
  yield join(dirname(BUNDLE_SCRIPT), 'code-cache');
  const project = projectCacheDir();
  if (project) yield project;
}

function projectCacheDir(): string | undefined {
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules'))) return join(dir, 'node_modules/.cache/agentest');
    if (dirname(dir) === dir) return undefined;
  }
}
