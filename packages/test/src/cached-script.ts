import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/**
 * Runs a CommonJS script (one the bundle build wrote) with V8's code cache: the functions a run compiled,
 * saved after the run, are read back instead of parsed and compiled again. Node 20 keeps no code cache for ES
 * modules and none for scripts it loads with `require`, so the script is compiled here with `vm.Script`, wrapped
 * the way `require` wraps a module.
 *
 * Dynamic `import()` does not work in a `vm.Script` on Node 20 without an experimental flag (and not at all from
 * a code cache), so the build rewrites each `import(` of the script to a call of the wrapper's sixth parameter,
 * `importModule`, which imports from here: the script and this file are in one package, so a package name
 * resolves alike from either.
 */
export interface CachedScript<T> {
  exports: T;
  /** `used`: compiled from the cache; `missing`: there was none; `rejected`: V8 refused it (other version, flags). */
  cache: 'used' | 'missing' | 'rejected';
  /** Saves the functions compiled so far as the cache, atomically, in the first folder that takes it; never throws. */
  saveCache(): void;
}

const WRAPPER = '(function (exports, require, module, __filename, __dirname, importModule) {';
/** The last line of a bundle script: `// agentest-script <hash of the rest>`, which names its caches. */
const ID_LINE = /\/\/ agentest-script ([0-9a-f]+)\s*$/;

const importModule = (specifier: string, options?: ImportCallOptions) => import(specifier, options);

/** What the wrapped script evaluates to: the module function `require` would call, plus `importModule`. */
type ModuleFunction = (
  exports: unknown,
  require: NodeJS.Require,
  module: { exports: unknown },
  filename: string,
  dirname: string,
  load: typeof importModule,
) => void;

/**
 * Loads `file`, reading its cache from the first of `cacheDirs()` that has one (the folders are asked for in
 * turn, so a later one costs nothing while an earlier one has the cache).
 */
export function loadCachedScript<T>(file: string, cacheDirs: () => Iterable<string>): CachedScript<T> {
  // The build makes the script ASCII only, so it is read as Latin-1: several times faster than UTF-8 decoding.
  const source = readFileSync(file, 'latin1');
  const id = ID_LINE.exec(source.slice(-200))?.[1];
  if (!id) throw new Error(`${file} is not a bundle script (its last line names no id): rebuild with npm run build`);
  const name = `${basename(file)}-${id}-${process.arch}-v8-${process.versions.v8}.cache`;
  const cachedData = readFirst(cacheDirs(), name);
  const script = new Script(`${WRAPPER}${source}\n})`, { filename: file, cachedData });
  const module = { exports: {} as T };
  (script.runInThisContext() as ModuleFunction)(
    module.exports,
    createRequire(file),
    module,
    file,
    dirname(file),
    importModule,
  );
  return {
    exports: module.exports,
    cache: !cachedData ? 'missing' : script.cachedDataRejected ? 'rejected' : 'used',
    saveCache: () => writeFirst(cacheDirs(), name, () => script.createCachedData()),
  };
}

function readFirst(dirs: Iterable<string>, name: string): Buffer | undefined {
  for (const dir of dirs) {
    try {
      return readFileSync(join(dir, name));
    } catch {
      // Not cached there.
    }
  }
  return undefined;
}

/** Written beside the final name and renamed, so a process starting meanwhile reads a whole cache or none. */
function writeFirst(dirs: Iterable<string>, name: string, data: () => Buffer): void {
  let bytes: Buffer;
  try {
    bytes = data();
  } catch {
    return;
  }
  for (const dir of dirs) {
    const temporary = join(dir, `${name}.${process.pid}.tmp`);
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(temporary, bytes);
      renameSync(temporary, join(dir, name));
      return;
    } catch {
      if (existsSync(temporary)) rmSync(temporary);
      // A read-only folder (a global install, a shared image): try the next; a cache is never worth a failed run.
    }
  }
}
