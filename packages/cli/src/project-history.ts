import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { HistoryStore } from '@agentest/history';
import type { NormalisedConfig } from './config/normalise-config.js';

/**
 * The project root: the config file's folder, else the nearest folder up from `cwd` with a
 * package.json, else `cwd` itself. The history lives in `.agentest/history/` there, unless the
 * config's `history.dir` says otherwise.
 */
export function projectRoot(config: Pick<NormalisedConfig, 'file'>, cwd: string): string {
  if (config.file) return dirname(config.file);
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return resolve(cwd);
  }
}

/** The project's history folder with the config's limits. */
export async function projectStore(
  config: Pick<NormalisedConfig, 'file' | 'history'>,
  cwd: string,
): Promise<HistoryStore> {
  const { HistoryStore } = await import('@agentest/history');
  const dir = config.history.dir ?? join(projectRoot(config, cwd), '.agentest', 'history');
  return new HistoryStore(dir, config.history);
}

/**
 * How a run's `-i` is recorded: a path inside the project relative to its root (with `/`), so the
 * same suite is the same input from any working directory; anything else (a message, a script id) as given.
 */
export function historyInput(input: string, cwd: string, root: string): string {
  const path = resolve(cwd, input);
  if (!existsSync(path)) return input;
  const inside = relative(root, path);
  if (!inside) return '.';
  if (inside.startsWith('..') || isAbsolute(inside)) return path.split(sep).join('/');
  return inside.split(sep).join('/');
}
