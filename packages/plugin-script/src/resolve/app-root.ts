import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The nearest directory, from `start` up, that holds one of `markers`. Yao resolves `scripts.*` from
 * the app root, which holds `app.yao`.
 */
export function findUp(start: string, markers: readonly string[]): string | undefined {
  let dir = resolve(start);
  for (;;) {
    if (markers.some((marker) => existsSync(join(dir, marker)))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Where `scripts.<assistant>.<module>` is resolved: the `root` option, else the app (`app.yao`), else `cwd`. */
export function scriptTestRoot(cwd: string, root?: string): string {
  if (root) return resolve(cwd, root);
  return findUp(cwd, ['app.yao']) ?? resolve(cwd);
}

/** Where `scripts.test.ValidateOutput` lives: up from the input file to `app.yao`, `package.json` or `scripts/`. */
export function scriptFunctionRoot(from: string, root?: string): string {
  if (root) return resolve(root);
  return findUp(from, ['app.yao', 'package.json', 'scripts']) ?? resolve(from);
}
