import { extname, isAbsolute, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { AgentestError, type ErrorCode } from '@agentest/kernel';
import { errorMessage } from '@agentest/kernel/errors';

export type PackageResolution = { file: string } | { missing: true } | { problem: string };

const TYPESCRIPT = new Set(['.ts', '.mts', '.cts', '.tsx']);

/**
 * The entry file of a package named in the config, found as Node's `import` finds a package from the
 * config file's folder (its `node_modules`, then each parent's; the `import` condition of `exports`),
 * not from wherever agentest is installed: a plugin installed in the user's project loads even when
 * agentest runs from elsewhere. `import-meta-resolve` is Node's own resolver with a parent of our choosing,
 * which `import.meta.resolve` on Node 20 takes only behind a flag.
 */
export async function resolvePackageFrom(dir: string, name: string): Promise<PackageResolution> {
  const { resolve } = await import('import-meta-resolve');
  try {
    const url = resolve(name, pathToFileURL(join(dir, 'package.json')).href);
    if (!url.startsWith('file:')) return { problem: `"${name}" is a Node built-in module, not a package` };
    return { file: fileURLToPath(url) };
  } catch (error) {
    const message = errorMessage(error).split('\n')[0]!;
    // "Cannot find package 'name'" is a package that is not installed; any other failure (an exports
    // map without an `import` entry, a `main` that does not exist) is a broken package, and says so.
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' && message.includes(`package '${name}'`))
      return { missing: true };
    return { problem: message };
  }
}

/**
 * The entry of a package a config entry names, ready to import; undefined when it is not installed.
 * A package whose entry is TypeScript is refused with a configuration error naming the entry: agentest
 * compiles the config and the files it imports by path, but loads installed packages as Node would.
 */
export async function packageEntry(
  dir: string,
  name: string,
  where: string,
  code: ErrorCode,
  kind: 'plugin' | 'reporter',
): Promise<string | undefined> {
  const found = await resolvePackageFrom(dir, name);
  if ('missing' in found) return undefined;
  if ('problem' in found)
    throw new AgentestError(code, `${where}: ${kind} package "${name}" cannot be loaded: ${found.problem}`, { where });
  if (TYPESCRIPT.has(extname(found.file)))
    throw new AgentestError(
      code,
      `${where}: ${kind} package "${name}" points its entry at TypeScript (${found.file}); packages must ship JavaScript: build the package first (its "exports"/"main" naming the built .js), or name the source file by path instead`,
      { where, hint: `Build ${name} (its own build script) so that its entry is a .js file, then run again.` },
    );
  return found.file;
}

/** A config entry that names a file (`./x`, `../x`, `/x`, or any `*.ts`/`*.js`) rather than a package. */
export function looksLikePath(name: string): boolean {
  return /^\.{1,2}[\\/]/.test(name) || isAbsolute(name) || /\.[cm]?[jt]s$/.test(name);
}
