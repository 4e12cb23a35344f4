import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What a run leaves in the project that is not source: reports, the run history, default outputs, config bundles. */
export const IGNORED = ['agentest-report/', '.agentest/', '**/tests/output-*', '*.config.ts.*.mjs'];

/**
 * Appends to `<dir>/.gitignore` the patterns it lacks (creating the file when there is none), as
 * `npm init playwright` does for its reports. Returns what changed: `created`, `updated` or nothing.
 */
export async function ignoreRunOutputs(dir: string): Promise<'created' | 'updated' | undefined> {
  const file = join(dir, '.gitignore');
  const text = await readFile(file, 'utf8').catch(() => undefined);
  const present = new Set((text ?? '').split(/\r?\n/).map((line) => line.trim()));
  const missing = IGNORED.filter((pattern) => !present.has(pattern) && !present.has(`/${pattern}`));
  if (!missing.length) return undefined;
  const before = text === undefined || text === '' || text.endsWith('\n') ? (text ?? '') : `${text}\n`;
  await writeFile(file, `${before}${before ? '\n' : ''}# agentest\n${missing.join('\n')}\n`);
  return text === undefined ? 'created' : 'updated';
}
