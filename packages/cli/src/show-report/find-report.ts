import { existsSync, statSync } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { AgentestError } from '@agentest/kernel/errors';
import { SEARCH_PLACES } from '../config/load-config.js';

/** The mark the HTML reporter puts in every report's `<head>`, which tells it from any other HTML file. */
const GENERATOR = /<meta name="generator" content="agentest"/;
/** Folders that never hold a report and can be huge. */
const SKIPPED = new Set(['node_modules', '.git', '.agentest', 'dist', '.yao']);
/** A project with more folders than this is searched no further: the newest report found so far wins. */
const MAX_FOLDERS = 5_000;
const MAX_DEPTH = 8;

export interface FoundReport {
  path: string;
  modified: Date;
}

/**
 * The report `show-report [file]` opens: the file given, a folder's `index.html` or newest report, or
 * without a file the newest report of the project.
 */
export async function locateReport(given: string | undefined, cwd: string): Promise<FoundReport> {
  if (given === undefined) return newestIn(projectFolder(cwd), cwd);
  const path = resolve(cwd, given);
  if (existsSync(path) && statSync(path).isDirectory()) {
    const index = join(path, 'index.html');
    if (await isAgentestReport(index)) return { path: index, modified: statSync(index).mtime };
    return newestIn(path, cwd);
  }
  if (!existsSync(path)) throw notFound(`${given}: no such file (looked at ${path})`);
  if (!(await isAgentestReport(path))) throw notFound(`${given}: not an HTML report written by agentest`);
  return { path, modified: statSync(path).mtime };
}

/**
 * Where a run's reports are: the nearest folder up from `cwd` with an agentest config (by name; it is not
 * evaluated) or a package.json, else `cwd`.
 */
function projectFolder(cwd: string): string {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (SEARCH_PLACES.some((name) => existsSync(join(dir, name)))) return dir;
    if (dirname(dir) === dir) return resolve(cwd);
  }
}

async function newestIn(root: string, cwd: string): Promise<FoundReport> {
  const found = await findLatestReport(root);
  if (!found) throw notFound(`no HTML report under ${relative(cwd, root) || root}`);
  return found;
}

function notFound(problem: string): AgentestError {
  return new AgentestError(
    'REPORT_NOT_FOUND',
    `${problem}; write one with \`agentest test -i <suite> -o report.html\` or an html reporter in the config`,
    { where: 'show-report' },
  );
}

/**
 * The newest agentest HTML report under `root`: the reporter writes `{input_dir}/output-{timestamp}.html`
 * beside each suite by default, or where the config's `output` says, so the search is by content (the
 * reporter's generator mark), not by name.
 */
export async function findLatestReport(root: string): Promise<FoundReport | undefined> {
  const candidates: FoundReport[] = [];
  const queue: [string, number][] = [[root, 0]];
  for (let visited = 0; queue.length && visited < MAX_FOLDERS; visited++) {
    const [dir, depth] = queue.shift()!;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && depth < MAX_DEPTH && !SKIPPED.has(entry.name)) queue.push([path, depth + 1]);
      else if (entry.isFile() && /\.html?$/i.test(entry.name)) {
        const modified = await stat(path)
          .then((s) => s.mtime)
          .catch(() => undefined);
        if (modified) candidates.push({ path, modified });
      }
    }
  }
  candidates.sort((a, b) => b.modified.getTime() - a.modified.getTime());
  for (const candidate of candidates) if (await isAgentestReport(candidate.path)) return candidate;
  return undefined;
}

/** Whether the file's head carries the HTML reporter's generator mark (read: its first 2 KB). */
export async function isAgentestReport(path: string): Promise<boolean> {
  const handle = await open(path, 'r').catch(() => undefined);
  if (!handle) return false;
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(2048), 0, 2048, 0);
    return GENERATOR.test(buffer.toString('utf8', 0, bytesRead));
  } finally {
    await handle.close();
  }
}
