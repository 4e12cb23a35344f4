import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import libCoverage, { type CoverageMap } from 'istanbul-lib-coverage';
import v8ToIstanbul from 'v8-to-istanbul';
import type { ScriptCoverage } from './coverage-protocol.js';

/** A compiled bundle as the main thread keeps it for coverage: its code and esbuild's source map. */
export interface BundleSource {
  code: string;
  map?: string;
}

/**
 * V8's counts for the bundles, mapped through their source maps onto the user's `.ts`/`.js` files
 * (v8-to-istanbul, as c8 does it). `keep` decides which source files count (include/exclude); a script
 * whose bundle is unknown (compiled by a run that did not collect coverage) is left out.
 */
export async function toIstanbul(
  scripts: readonly ScriptCoverage[],
  bundles: ReadonlyMap<string, BundleSource>,
  keep: (file: string) => boolean,
): Promise<CoverageMap> {
  const map = libCoverage.createCoverageMap({});
  const contents = new Map<string, Promise<string>>();
  for (const script of scripts) {
    // V8 names a `vm.Script` by a file URL made from the `filename` it was given.
    const file = script.url.startsWith('file://') ? fileURLToPath(script.url) : script.url;
    const bundle = bundles.get(file);
    if (!bundle?.map || !isScriptOf(script, bundle.code)) continue;
    const sourcemap = await withSources(JSON.parse(bundle.map) as RawSourceMap, file, contents);
    const files = new Set(
      sourcemap.sources.map((source) => sourcePath(source, file)).filter((path) => isAbsolute(path)),
    );
    const converter = v8ToIstanbul(
      file,
      0,
      { source: bundle.code, originalSource: '', sourceMap: { sourcemap } },
      // v8-to-istanbul asks with the source map's own names, and with them resolved against the bundle's
      // folder (which makes a path of the virtual `yao-runtime:@yao/runtime` too): only real files count.
      (path) => {
        const source = sourcePath(path, file);
        return !files.has(source) || !keep(source);
      },
    );
    await converter.load();
    converter.applyCoverage(userFunctions(script.functions, bundle.code));
    map.merge(converter.toIstanbul());
  }
  return map;
}

/**
 * Whether V8's script is this bundle: a thread may still hold an older bundle of the same file (compiled
 * before a change, or tree-shaken by a run without coverage), and its counts must not be mapped through
 * this bundle's source map. The script's own range spans its whole code.
 */
function isScriptOf(script: ScriptCoverage, code: string): boolean {
  const whole = script.functions[0]?.ranges[0];
  return whole?.startOffset === 0 && whole.endOffset === code.length;
}

/**
 * Leaves out the getters esbuild writes for a module's exports (`__export(m, { Create: () => Create })`):
 * they map onto the `export` keyword, and one that nobody reads would show as an uncovered function.
 */
function userFunctions(functions: ScriptCoverage['functions'], code: string): ScriptCoverage['functions'] {
  const tables = [...code.matchAll(/__export\([\w$]+, \{[^}]*\}\);/g)].map((m) => [m.index, m.index + m[0].length]);
  if (!tables.length) return functions;
  return functions.filter(({ ranges }) => {
    const start = ranges[0]?.startOffset ?? -1;
    return !tables.some(([from, to]) => start >= from! && start < to!);
  });
}

interface RawSourceMap {
  version: 3;
  sources: string[];
  sourcesContent?: (string | null)[];
  mappings: string;
  names: string[];
  sourceRoot?: string;
}

/**
 * esbuild writes the map without the sources' text (the workers never need it); coverage reads each
 * source once from disk. A source that is no file (the virtual `@yao/runtime` module) gets no text.
 */
async function withSources(
  map: RawSourceMap,
  bundle: string,
  contents: Map<string, Promise<string>>,
): Promise<RawSourceMap> {
  const texts = await Promise.all(
    map.sources.map((source) => {
      const path = sourcePath(source, bundle);
      let text = contents.get(path);
      if (!text) contents.set(path, (text = readFile(path, 'utf8').catch(() => '')));
      return text;
    }),
  );
  return { ...map, sourcesContent: texts };
}

/**
 * Where a source map's source is on disk. A name in a namespace of its own (`yao-runtime:@yao/runtime`,
 * made by an esbuild plugin) is no file: it stays as it is, and the source filter leaves it out.
 */
export function sourcePath(source: string, bundle: string): string {
  if (source.startsWith('file://')) return fileURLToPath(source);
  if (/^[a-z][\w+.-]+:/i.test(source)) return source;
  return isAbsolute(source) ? source : resolve(dirname(bundle), source);
}
