import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * Writes a file so that readers never see half of it: the content goes to a temporary file in the
 * same directory (same filesystem, so the rename is atomic), is flushed to disk, and is then renamed
 * over the target. Missing parent directories are created. When anything fails (a full disk, a
 * read-only directory) the temporary file is removed, the previous file at `path` is left as it
 * was, and the error names the path and the cause (`ENOSPC: no space left on device`).
 */
export async function writeFileAtomic(path: string, content: string): Promise<void> {
  const dir = dirname(path);
  const temp = join(
    dir,
    `.${basename(path)}.${process.pid}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.tmp`,
  );
  try {
    await mkdir(dir, { recursive: true });
    const file = await open(temp, 'w');
    try {
      await file.writeFile(content, 'utf8');
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw Object.assign(
      new Error(`cannot write ${path}: ${reason}; any previous file there is unchanged`, { cause: error }),
      {
        code: (error as { code?: unknown } | null)?.code,
      },
    );
  }
}

/** The absolute output path: `output` relative to `cwd` (default: the process's), or the default file name. */
export function resolveOutputPath(options: { output?: string; cwd?: string }, defaultFile: string): string {
  return resolve(options.cwd ?? process.cwd(), options.output ?? defaultFile);
}
