import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { AgentestError } from '@agentest/kernel';
import type { CassetteEntry } from './entry.js';

/** The default folder beside a suite's file: `__cassettes__/<suite>/`. */
export const DEFAULT_FOLDER = '__cassettes__';

/**
 * Where a suite's cassettes live: `<dir of the suite file>/__cassettes__/<suite>/`, or
 * `<configured dir>/<suite>/` when the config names one (relative to the working directory).
 */
export function suiteCassetteDir(suiteFile: string, configured: string | undefined, cwd: string): string {
  const suite = basename(suiteFile).replace(/\.[^.]+$/, '') || 'suite';
  return configured
    ? join(resolve(cwd, configured), suite)
    : join(dirname(resolve(cwd, suiteFile)), DEFAULT_FOLDER, suite);
}

/**
 * One file per case, named after its id. Characters a file system may refuse are replaced; the id
 * then gets a short hash so that two ids that differ only there keep two files.
 */
export function caseFile(dir: string, caseId: string): string {
  const safe = caseId.replace(/[^\w.-]/g, '_').slice(0, 120);
  const name = safe === caseId ? safe : `${safe}-${createHash('sha256').update(caseId).digest('hex').slice(0, 8)}`;
  return join(dir, `${name}.jsonl`);
}

/** Whether a suite has any recorded case (what turns lockdown on when `CI` is set). */
export function hasCassettes(dir: string): boolean {
  return existsSync(dir) && readdirSync(dir).some((name) => name.endsWith('.jsonl'));
}

/** A case's recorded calls; none when the file does not exist. A broken line names the file and line. */
export async function readCassette(path: string): Promise<CassetteEntry[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return text.split('\n').flatMap((line, i) => {
    if (!line.trim()) return [];
    try {
      return [JSON.parse(line) as CassetteEntry];
    } catch (error) {
      throw new AgentestError(
        'INPUT_INVALID',
        `${path}:${i + 1}: not a cassette entry (${(error as Error).message}); fix the line or record the case again with --record`,
        { where: `${path}:${i + 1}` },
      );
    }
  });
}

/** Writes a case's calls, one JSON line each, through a temporary file so a reader never sees half of it. */
export async function writeCassette(path: string, entries: readonly CassetteEntry[]): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
  await rename(temporary, path);
}
