import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { SourceMap } from 'node:module';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import type * as esbuild from 'esbuild';
import { AgentestError } from '@agentest/kernel';
import { activeCoverage } from '../coverage/coverage-session.js';
import { topLevelFunctions, unexportedDeclarations, type DeclaredFunction } from './discover.js';
import { yaoRuntimeModule } from './yao-runtime-module.js';

/** A user module bundled with its siblings, ready to run in any worker. */
export interface CompiledModule {
  /** Content hash: the workers' cache key. */
  key: string;
  code: string;
  /** The name stack frames carry for this bundle. */
  filename: string;
  /** The entry file (absolute). */
  file: string;
  /** esbuild's source map of `code` (without the sources' text): stack locations and coverage use it. */
  map?: string;
  /** Every source file in the bundle (absolute), entry last as esbuild lists it. */
  loaded: string[];
  /** Top-level functions of the entry, in file order. */
  functions: DeclaredFunction[];
  /**
   * Whether the bundle's code can reach what answers on the main thread during a call (`Process`,
   * `http`, the stubbed `ctx.agent`/`memory`/`mcp`/`search`/`llm`, a test's `t.assert.Agent` or
   * `t.assert.MatchSnapshot`): only then
   * does a call get a process channel, which costs about as much as a small test.
   */
  usesHostRuntime: boolean;
  /** The user-source position (`file:line:col`, relative to `cwd`) of the first user frame of a stack. */
  locate(stack: string | undefined, cwd?: string): string | undefined;
}

const HOST_RUNTIME_WORDS = /\b(?:Process|http)\b|\.(?:agent|Agent|memory|mcp|search|llm|MatchSnapshot)\b/;
const SCRIPT_EXTENSIONS = new Set(['.ts', '.js', '.mts', '.mjs', '.cts', '.cjs']);
const GLOBAL_NAME = '__agentest_module';
const cache = new Map<string, { module: CompiledModule; stamps: Map<string, number> }>();

/**
 * Bundles a user module on the main thread with esbuild (one service for the process, about 5 ms a
 * file once warm): every sibling `.ts/.js` that is not a `*_test` file is injected, so the entry can
 * use their functions with or without an `import`, and the entry's top-level functions, exported or
 * not, are collected in `__agentest_functions`. Cached until any input file changes.
 * A syntax error throws `SCRIPT_INVALID` naming `file:line:col`.
 */
export async function compileModule(
  file: string,
  options: { alias?: Record<string, string> } = {},
): Promise<CompiledModule> {
  const entry = resolve(file);
  const coverage = activeCoverage();
  const cacheKey = `${entry}\0${JSON.stringify(options.alias ?? {})}${coverage ? '\0whole' : ''}`;
  const hit = cache.get(cacheKey);
  if (hit && fresh(hit.stamps)) return (coverage?.remember(hit.module), hit.module);

  const siblings = siblingsOf(entry);
  const entrySource = await readFile(entry, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new AgentestError('INPUT_NOT_FOUND', `cannot read script ${entry}: ${error.code ?? error.message}`, {
      where: entry,
    });
  });
  const functions = topLevelFunctions(entrySource);
  const outfile = `${entry}.agentest-bundle.js`;
  let result: esbuild.BuildResult & { outputFiles: esbuild.OutputFile[]; metafile: esbuild.Metafile };
  try {
    // esbuild loads with the first script to compile: a run without scripts never pays for it.
    const { build } = await import('esbuild');
    result = await build({
      entryPoints: [entry],
      inject: siblings,
      bundle: true,
      write: false,
      outfile,
      format: 'iife',
      globalName: GLOBAL_NAME,
      platform: 'neutral',
      mainFields: ['module', 'main'],
      target: 'es2022',
      sourcemap: 'external',
      sourcesContent: false,
      // Coverage counts every function of a file, so none may be dropped for being unused.
      ...(coverage ? { treeShaking: false } : {}),
      metafile: true,
      logLevel: 'silent',
      alias: options.alias,
      plugins: [yaoRuntimeModule(), exposeFunctions(entry, entrySource, functions, new Set(siblings))],
    });
  } catch (error) {
    throw compileError(error, entry);
  }
  const code = result.outputFiles.find((f) => f.path.endsWith('.js'))!.text;
  const mapText = result.outputFiles.find((f) => f.path.endsWith('.map'))?.text;
  const loaded = Object.keys(result.metafile.inputs).map((p) => resolve(p));
  const module: CompiledModule = {
    key: createHash('sha1').update(code).digest('hex'),
    code,
    filename: outfile,
    file: entry,
    ...(mapText ? { map: mapText } : {}),
    loaded,
    functions,
    usesHostRuntime: HOST_RUNTIME_WORDS.test(code),
    locate: locator(outfile, mapText),
  };
  cache.set(cacheKey, { module, stamps: stamp([...loaded, dirname(entry)]) });
  coverage?.remember(module);
  return module;
}

/** The sibling scripts a module sees: same directory, not tests, not declarations, not itself. */
export function siblingsOf(entry: string): string[] {
  const dir = dirname(entry);
  return readdirSync(dir)
    .filter(
      (name) =>
        SCRIPT_EXTENSIONS.has(extname(name)) &&
        !name.endsWith('.d.ts') &&
        !/_test\.[cm]?[jt]s$/.test(name) &&
        !name.includes('.agentest-bundle.'),
    )
    .map((name) => join(dir, name))
    .filter((path) => path !== entry && statSync(path).isFile())
    .sort();
}

function exposeFunctions(
  entry: string,
  entrySource: string,
  functions: DeclaredFunction[],
  siblings: Set<string>,
): esbuild.Plugin {
  return {
    name: 'agentest-expose-functions',
    setup(build) {
      build.onLoad({ filter: /\.[cm]?[jt]s$/ }, async (args) => {
        if (args.path !== entry && !siblings.has(args.path)) return undefined;
        const loader = /\.[cm]?ts$/.test(args.path) ? 'ts' : 'js';
        if (args.path === entry) {
          const table = functions
            .map((f) => `${JSON.stringify(f.name)}: typeof ${f.name} === "function" ? ${f.name} : undefined`)
            .join(', ');
          return { contents: `${entrySource}\n;export const __agentest_functions = { ${table} };\n`, loader };
        }
        const source = await readFile(args.path, 'utf8');
        const names = unexportedDeclarations(source);
        return { contents: names.length ? `${source}\n;export { ${names.join(', ')} };\n` : source, loader };
      });
    },
  };
}

function compileError(error: unknown, entry: string): AgentestError {
  const first = (error as { errors?: esbuild.Message[] }).errors?.[0];
  if (!first)
    return new AgentestError('SCRIPT_INVALID', `cannot compile ${entry}: ${(error as Error).message}`, {
      where: entry,
      cause: error,
    });
  const where = first.location
    ? `${relative(process.cwd(), resolve(first.location.file))}:${first.location.line}:${first.location.column + 1}`
    : entry;
  const more = ((error as { errors?: unknown[] }).errors?.length ?? 1) - 1;
  return new AgentestError(
    'SCRIPT_INVALID',
    `${where}: ${first.text}${more > 0 ? ` (and ${more} more error${more > 1 ? 's' : ''})` : ''}`,
    { where, cause: error },
  );
}

function stamp(paths: string[]): Map<string, number> {
  const stamps = new Map<string, number>();
  for (const path of paths) stamps.set(path, mtime(path));
  return stamps;
}

function fresh(stamps: Map<string, number>): boolean {
  for (const [path, time] of stamps) if (mtime(path) !== time) return false;
  return true;
}

function mtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
}

/** Maps `bundle:line:col` frames back to the user's files with the external source map. */
function locator(bundle: string, mapText: string | undefined): CompiledModule['locate'] {
  let map: SourceMap | undefined;
  const frame = new RegExp(`${escape(bundle)}:(\\d+):(\\d+)`, 'g');
  return (stack, cwd = process.cwd()) => {
    if (!stack || !mapText) return undefined;
    map ??= new SourceMap(JSON.parse(mapText));
    for (const match of stack.matchAll(frame)) {
      const entry = map.findEntry(Number(match[1]) - 1, Number(match[2]) - 1) as {
        originalSource?: string;
        originalLine?: number;
        originalColumn?: number;
      };
      if (!entry?.originalSource) continue;
      const source = resolve(dirname(bundle), entry.originalSource.replace(/^file:\/\//, ''));
      return `${relative(cwd, source) || basename(source)}:${entry.originalLine! + 1}:${entry.originalColumn! + 1}`;
    }
    return undefined;
  };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
