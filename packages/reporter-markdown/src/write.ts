import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * Writes a file so that readers never see half of it: the content goes to a temporary file in the
 * same directory (same filesystem, so the rename is atomic) and is then renamed over the target.
 * Missing parent directories are created.
 */
export async function writeFileAtomic(path: string, content: string): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.tmp`);
  try {
    await writeFile(temp, content, 'utf8');
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** The absolute output path: `output` relative to `cwd` (default: the process's), or the reporter's default file name. */
export function resolveOutputPath(options: { output?: string; cwd?: string }, defaultFile: string): string {
  return resolve(options.cwd ?? process.cwd(), options.output ?? defaultFile);
}
