import type { EnvironmentVariables } from '@agentest/kernel';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** A Yao application root and how it was found (shown when an agent cannot be found). */
export interface AppRoot {
  dir: string;
  /** `option` (the plugin's `root`), `app.yao`/`app.json`/`app.jsonc`, `assistants/`, or `YAO_ROOT`. */
  foundBy: string;
}

const MARKERS = ['app.yao', 'app.json', 'app.jsonc'];

/**
 * Finds the app root: the `root` option, else the nearest directory at or above `start` holding
 * `app.yao`/`app.json`/`app.jsonc` or an `assistants/` directory, else `$YAO_ROOT`.
 * Markers win over a bare `assistants/` so that an assistant's own nested folders never pass for a root.
 */
export function findAppRoot(
  start: string,
  options: { root?: string; env?: EnvironmentVariables } = {},
): AppRoot | undefined {
  if (options.root) return { dir: resolve(options.root), foundBy: 'option' };
  const from = startDirectory(start);
  const byMarker = findMarkedRoot(from);
  if (byMarker) return byMarker;
  const byAssistants = walkUp(from, (dir) => (isDirectory(join(dir, 'assistants')) ? 'assistants/' : undefined));
  if (byAssistants) return byAssistants;
  const yaoRoot = options.env?.YAO_ROOT;
  return yaoRoot && isDirectory(yaoRoot) ? { dir: resolve(yaoRoot), foundBy: 'YAO_ROOT' } : undefined;
}

/**
 * Yao's own `findAppRoot`: the nearest directory at or above `start` holding `app.yao`, `app.json` or
 * `app.jsonc`, and nothing else (no `assistants/`, no `$YAO_ROOT`).
 */
export function findMarkedRoot(start: string): AppRoot | undefined {
  return walkUp(startDirectory(start), (dir) => MARKERS.find((m) => existsSync(join(dir, m))));
}

/** A file starts the search in its directory; a directory starts it in itself. */
export function startDirectory(path: string): string {
  const abs = resolve(path);
  return isDirectory(abs) ? abs : dirname(abs);
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function walkUp(from: string, test: (dir: string) => string | undefined): AppRoot | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const foundBy = test(dir);
    if (foundBy) return { dir, foundBy };
    if (dirname(dir) === dir) return undefined;
  }
}
