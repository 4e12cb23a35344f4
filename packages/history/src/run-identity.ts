import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

/** How long asking git may take before the run goes on without the commit. */
const GIT_TIMEOUT_MS = 5_000;

/** The commit and branch checked out in `dir`, or undefined outside a git work tree (or without git). */
export async function gitState(dir: string): Promise<{ commit: string; branch?: string } | undefined> {
  // One process for both: the commit, then the branch name (`HEAD` when detached). Each start of git
  // costs a run more than everything else it does before its first case.
  const [commit, branch] = (await git(dir, ['rev-parse', 'HEAD', '--abbrev-ref', 'HEAD']))?.split('\n') ?? [];
  if (!commit) return undefined;
  return { commit, ...(branch && branch !== 'HEAD' ? { branch } : {}) };
}

function git(cwd: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, timeout: GIT_TIMEOUT_MS, windowsHide: true }, (error, stdout) =>
      resolve(error ? undefined : stdout.trim() || undefined),
    );
  });
}

/** The first 16 hex digits of the sha256 of the config file's text; undefined without one. */
export async function configHash(file: string | undefined): Promise<string | undefined> {
  if (!file) return undefined;
  try {
    return createHash('sha256')
      .update(await readFile(file))
      .digest('hex')
      .slice(0, 16);
  } catch {
    return undefined;
  }
}
