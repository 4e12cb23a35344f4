import { relative, resolve } from 'node:path';
import type { AgentRef, EnvironmentVariables } from '@agentest/kernel';
import { editDistance } from '@agentest/kernel/errors';
import { findAppRoot, startDirectory, type AppRoot } from './app-root.js';
import { assistantDir, listAssistants, locateFromPath, looksLikeAssistantId, PACKAGE_FILE } from './locate.js';

/** Where the resolver looked for an agent reference, for a "not found" message. */
export interface SearchReport {
  appRoot?: AppRoot;
  /** package.yao files checked, in order. */
  looked: string[];
  /** Assistant ids that exist under the app root. */
  known: string[];
}

export async function searchReport(
  ref: AgentRef,
  options: { root?: string; cwd: string; env: EnvironmentVariables },
): Promise<SearchReport> {
  const start = ref.path ? resolve(options.cwd, ref.path) : options.cwd;
  // An id may live in the input's app or, when the input lies outside any app, the working directory's.
  const appRoot =
    findAppRoot(start, { root: options.root, env: options.env }) ??
    (ref.id ? findAppRoot(options.cwd, { env: options.env }) : undefined);
  const known = appRoot ? await listAssistants(appRoot.dir) : [];
  if (ref.id) {
    const looked =
      appRoot && looksLikeAssistantId(ref.id) ? [`${assistantDir(appRoot.dir, ref.id)}/${PACKAGE_FILE}`] : [];
    return { ...(appRoot ? { appRoot } : {}), looked, known };
  }
  const stopAt = appRoot && !relative(appRoot.dir, startDirectory(start)).startsWith('..') ? appRoot.dir : undefined;
  return { ...(appRoot ? { appRoot } : {}), looked: locateFromPath(start, stopAt).searched, known };
}

/**
 * A sentence saying where a Yao assistant was looked for and what exists, e.g. for the CLI to append
 * to AGENT_NOT_FOUND. Undefined when there is no Yao app in sight (nothing useful to say).
 */
export async function describeSearch(
  ref: AgentRef,
  options: { root?: string; cwd?: string; env?: EnvironmentVariables } = {},
): Promise<string | undefined> {
  const report = await searchReport(ref, {
    root: options.root,
    cwd: options.cwd ?? process.cwd(),
    env: options.env ?? process.env,
  });
  return formatSearch(ref, report);
}

export function formatSearch(ref: AgentRef, report: SearchReport): string | undefined {
  const { appRoot, looked, known } = report;
  if (!appRoot) return undefined;
  const rootText = `app root ${appRoot.dir} (${appRoot.foundBy === 'option' ? 'the "root" option' : appRoot.foundBy === 'YAO_ROOT' ? '$YAO_ROOT' : `found by its ${appRoot.foundBy}`})`;
  const where = ref.id
    ? looked.length
      ? `no ${looked[0]}`
      : `"${ref.id}" is not an assistant id (dot-separated names under assistants/)`
    : `no ${PACKAGE_FILE} in ${looked.length === 1 ? looked[0] : `${dirOf(looked[0])} or any parent up to ${dirOf(looked.at(-1))}`}`;
  const suggestion = ref.id ? closest(ref.id, known) : undefined;
  const knownText = known.length ? `assistants here: ${shortList(known)}` : 'no assistants exist under assistants/';
  return `${where}; ${rootText}; ${knownText}${suggestion ? `; did you mean "${suggestion}"?` : ''}`;
}

function dirOf(file: string | undefined): string {
  return file ? file.slice(0, -(PACKAGE_FILE.length + 1)) || '/' : '';
}

function shortList(ids: string[]): string {
  return ids.length > 12 ? `${ids.slice(0, 12).join(', ')}, … (${ids.length} in all)` : ids.join(', ');
}

/** The known id closest to a mistyped one (same last segment, or a small edit distance). */
function closest(id: string, known: string[]): string | undefined {
  const last = id.split('.').at(-1);
  const sameLeaf = known.filter((k) => k.split('.').at(-1) === last);
  if (sameLeaf.length === 1) return sameLeaf[0];
  let best: { id: string; d: number } | undefined;
  for (const k of known) {
    const d = editDistance(id, k);
    if (d <= Math.max(2, Math.floor(id.length / 4)) && (!best || d < best.d)) best = { id: k, d };
  }
  return best?.id;
}
