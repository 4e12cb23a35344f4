import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AgentestError } from '@agentest/kernel';

/**
 * The file an error names (`inputs.jsonl:3`, a config's path) when it changed after `since`, the
 * moment the run that read it started. Many tools save by truncating a file and writing it again; a
 * run that read it in between saw half a file, and its error says nothing about the file as saved.
 * Such an error is not shown: the file is read again instead.
 */
export function changedSince(error: AgentestError, cwd: string, since: number): string | undefined {
  const where = error.where?.replace(/:\d+(:\d+)?$/, '');
  if (!where) return undefined;
  const path = resolve(cwd, where);
  try {
    return statSync(path).mtimeMs > since ? path : undefined;
  } catch {
    return undefined; // a flag, an environment variable, or a file that is gone
  }
}
