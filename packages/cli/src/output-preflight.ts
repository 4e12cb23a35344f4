import { accessSync, constants, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { AgentestError } from '@agentest/kernel';

/**
 * Refuses, before the first case, an output file the run could not write: one whose path is a folder,
 * or whose folder is a file or not writable. Found after a paid run, the report would be lost; found
 * here, it costs exit 2. Folders that do not exist yet are fine: reporters create them.
 */
export function checkOutputWritable(path: string, where: string): void {
  const problem = outputProblem(path);
  if (problem)
    throw new AgentestError(
      'REPORTER_INVALID',
      `${where}${where.includes(path) ? '' : ` (${path})`}: cannot write the file: ${problem}; choose another path`,
      { where },
    );
}

function outputProblem(path: string): string | undefined {
  if (statOf(path)?.isDirectory()) return 'it is a folder';
  let dir = dirname(path);
  let stats = statOf(dir);
  while (!stats && dirname(dir) !== dir) {
    dir = dirname(dir);
    stats = statOf(dir);
  }
  if (!stats) return undefined;
  if (!stats.isDirectory()) return `${dir} is a file, not a folder`;
  try {
    accessSync(dir, constants.W_OK);
    return undefined;
  } catch {
    return `the folder ${dir} is not writable`;
  }
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
