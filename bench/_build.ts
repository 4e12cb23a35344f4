import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root, where `tsc -b` builds every package. */
const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * A benchmark measures what users run, the compiled CLI, built from the current sources: `tsc -b`
 * first, so `dist/` matches them. (A file starting with `_` is a helper the bench runner skips.)
 */
export function buildDist(): void {
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (tsc.status !== 0)
    throw new Error(`tsc -b failed, so dist/ would not match the sources:\n${tsc.stdout}${tsc.stderr}`);
}

/** `buildDist()`, then the bundle `@agentest/test` runs (scripts/bundle.mjs), as `npm run build` does. */
export function buildBundle(): void {
  buildDist();
  const bundle = spawnSync(process.execPath, [join(root, 'scripts/bundle.mjs')], { cwd: root, encoding: 'utf8' });
  if (bundle.status !== 0) throw new Error(`scripts/bundle.mjs failed:\n${bundle.stdout}${bundle.stderr}`);
}
