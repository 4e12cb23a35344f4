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

/**
 * The first 16 hex digits of the sha256 of the config's text: the config file's, then each base config's
 * it extends (a change in a shared base is a change of config); undefined without a config.
 */
export async function configHash(files: readonly string[]): Promise<string | undefined> {
  if (!files.length) return undefined;
  try {
    const hash = createHash('sha256');
    for (const [i, file] of files.entries()) hash.update(i ? '\0' : '').update(await readFile(file));
    return hash.digest('hex').slice(0, 16);
  } catch {
    return undefined;
  }
}
