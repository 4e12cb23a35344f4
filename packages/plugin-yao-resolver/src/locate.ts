import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { startDirectory } from './app-root.js';

export const PACKAGE_FILE = 'package.yao';

/** A Yao assistant id: dot-separated path segments under `assistants/`. */
const ASSISTANT_ID = /^[\w-]+(\.[\w-]+)*$/;

export function looksLikeAssistantId(id: string): boolean {
  return ASSISTANT_ID.test(id);
}

/** `workers.system.keyword` → `<root>/assistants/workers/system/keyword`, if it holds a package.yao. */
export function locateById(appRoot: string, id: string): string | undefined {
  if (!looksLikeAssistantId(id)) return undefined;
  const dir = assistantDir(appRoot, id);
  return existsSync(join(dir, PACKAGE_FILE)) ? dir : undefined;
}

export function assistantDir(appRoot: string, id: string): string {
  return join(appRoot, 'assistants', ...id.split('.'));
}

/**
 * Walks up from `path` (a file: its directory; a directory: itself) to the nearest directory holding
 * a package.yao, never above `stopAt`. Starting at a directory itself is deliberate: Yao starts one
 * level up, so `cd assistants/keyword && yao agent test -i "hi"` never finds the assistant there.
 */
export function locateFromPath(path: string, stopAt?: string): { dir?: string; searched: string[] } {
  const searched: string[] = [];
  for (let dir = startDirectory(path); ; dir = dirname(dir)) {
    searched.push(join(dir, PACKAGE_FILE));
    if (existsSync(join(dir, PACKAGE_FILE))) return { dir, searched };
    if (dir === stopAt || dirname(dir) === dir) return { searched };
  }
}

/**
 * The id Yao gives an assistant directory: its path under `assistants/` joined with dots
 * (`/app/assistants/workers/system/keyword` → `workers.system.keyword`); the basename when it is not
 * under an `assistants` segment.
 */
export function deriveAgentId(dir: string, appRoot?: string): string {
  if (appRoot) {
    const rel = relative(join(appRoot, 'assistants'), dir);
    if (rel && !rel.startsWith('..') && !rel.startsWith(sep)) return rel.split(sep).join('.');
  }
  const segments = dir.split(sep).filter(Boolean);
  const at = segments.indexOf('assistants');
  return at >= 0 && at < segments.length - 1 ? segments.slice(at + 1).join('.') : basename(dir);
}

/** Every assistant under `<root>/assistants` (any directory holding a package.yao), for suggestions. */
export async function listAssistants(appRoot: string): Promise<string[]> {
  const base = join(appRoot, 'assistants');
  let entries: string[];
  try {
    entries = await readdir(base, { recursive: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => basename(entry) === PACKAGE_FILE && !entry.split(sep).includes('node_modules'))
    .map((entry) => dirname(entry).split(sep).join('.'))
    .filter((id) => id !== '.')
    .sort();
}
