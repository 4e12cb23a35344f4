#!/usr/bin/env node
// `npm run build` runs this after `tsc -b`: bundles what `@agentest/test` runs (the `agentest` command, the
// `@agentest/test` and `@agentest/test/kit` entries, the script sandbox's worker) into
// packages/test/dist/bundle/. Node compiles and links every ES module on its own; the ~400 modules a run
// loaded from dist/ cost most of its start-up, the bundle's few dozen chunks a fraction of that.
// One build with code splitting: the command and a config that imports `@agentest/test` share one copy of
// the kernel (its classes, hook blocks and registries), and what a run loads lazily stays in its own chunks.
// BUNDLE_META=<file> writes esbuild's metafile there (which modules each chunk holds).
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { build } from 'esbuild';
import { replaceDir } from './replace-dir.mjs';

const root = new URL('..', import.meta.url).pathname;
const testPackage = join(root, 'packages/test');
const out = join(testPackage, 'dist/bundle');

/**
 * Third-party packages compiled into the bundle: the small ones every run loads (zod alone is 95 modules).
 * Every other package stays external, loaded from node_modules as before: native code (esbuild), packages
 * that start threads from their own files (piscina), the lazily loaded SDKs and template engine, and the
 * CommonJS config loader (cosmiconfig and its ~40 modules: bundled, a run measured no faster, and its
 * dynamic import would need a facade for its named exports). An external package must be a dependency of
 * @agentest/test, so that it resolves from the bundle wherever npm installs it; the build checks that.
 */
const BUNDLED = new Set(['zod', 'commander', 'tapable', 'lossless-json', 'jsonrepair', 'diff', 're2js']);

/**
 * Files read relative to a module's own `import.meta.url`. In the bundle each of our modules keeps the URL it
 * had in the repository, mirrored under the bundle folder (`<bundle>/packages/<name>/dist/<file>.js`), and
 * what those lookups find is put at the mirrored place: each package's version, the HTML reporter's
 * templates, the kit's sandbox runtime (bundled again per test file by the sandbox), the script worker.
 */
const MIRRORED = {
  copies: ['packages/reporter-html/assets', 'packages/plugin-kit/dist'],
  workers: { 'packages/plugin-script/dist/worker/worker.js': 'script-worker' },
};

const manifest = JSON.parse(readFileSync(join(testPackage, 'package.json'), 'utf8'));

const started = performance.now();
// Built beside the old bundle and swapped in at the end (unless it is the same), so a command started meanwhile
// finds a whole bundle.
const staging = `${out}-${process.pid}`;
rmSync(staging, { recursive: true, force: true });
let result;
try {
  result = await build({
    absWorkingDir: root,
    entryPoints: {
      bin: 'packages/test/dist/bin.js',
      index: 'packages/test/dist/index.js',
      kit: 'packages/test/dist/kit.js',
      ...Object.fromEntries(Object.entries(MIRRORED.workers).map(([file, name]) => [name, file])),
    },
    outdir: staging,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    // Paths in the source maps are relative to the bundle, so they name the sources wherever it is installed.
    sourceRoot: '',
    metafile: true,
    logLevel: 'warning',
    // Bundled CommonJS (tapable) calls `require` for Node's built-ins.
    banner: {
      js: "import { createRequire as __agentestCreateRequire } from 'node:module'; const require = __agentestCreateRequire(import.meta.url);",
    },
    plugins: [externalPackages(), mirroredImportMetaUrl()],
  });
  writeMirror(result.metafile, staging);
} catch (error) {
  rmSync(staging, { recursive: true, force: true });
  throw error;
}
const swapped = replaceDir(staging, out);
if (process.env.BUNDLE_META) writeFileSync(process.env.BUNDLE_META, JSON.stringify(result.metafile));
const chunks = Object.keys(result.metafile.outputs).filter((file) => file.endsWith('.js')).length;
const ms = Math.round(performance.now() - started);
console.log(`bundle: ${chunks} files in ${relative(root, out)}, ${swapped} (${ms} ms)`);

/** Keeps every package not in BUNDLED external, and fails when @agentest/test does not depend on it. */
function externalPackages() {
  return {
    name: 'external-packages',
    setup(builder) {
      const missing = new Set();
      builder.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:') || args.path.startsWith('@agentest/')) return undefined;
        const name = packageName(args.path);
        if (BUNDLED.has(name)) return undefined;
        if (!manifest.dependencies?.[name] && !isBuiltin(args.path)) missing.add(name);
        return { path: args.path, external: true };
      });
      builder.onEnd(() => {
        if (missing.size)
          throw new Error(
            `scripts/bundle.mjs: the bundle leaves ${[...missing].join(', ')} external, so packages/test/package.json ` +
              'must list each in its dependencies (the version the other packages pin), or add it to BUNDLED.',
          );
      });
    },
  };
}

/** Gives each of our modules its repository URL, mirrored under the bundle folder, as `import.meta.url`. */
function mirroredImportMetaUrl() {
  return {
    name: 'mirrored-import-meta-url',
    setup(builder) {
      builder.onLoad({ filter: /\/packages\/[^/]+\/dist\/.*\.js$/ }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        const mirrored = `./${relative(root, args.path)}`;
        return {
          contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(mirrored)}, import.meta.url).href`),
          resolveDir: dirname(args.path),
          loader: 'js',
        };
      });
    },
  };
}

function writeMirror(metafile, dir) {
  const packages = new Set(
    Object.keys(metafile.inputs)
      .map((input) => /^packages\/([^/]+)\//.exec(input)?.[1])
      .filter(Boolean),
  );
  for (const name of packages) {
    const { version } = JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8'));
    mkdirSync(join(dir, 'packages', name), { recursive: true });
    writeFileSync(join(dir, 'packages', name, 'package.json'), `${JSON.stringify({ type: 'module', version })}\n`);
  }
  for (const path of MIRRORED.copies)
    cpSync(join(root, path), join(dir, path), {
      recursive: true,
      filter: (file) => !/\.(d\.ts|map)$/.test(file),
    });
  for (const [file, name] of Object.entries(MIRRORED.workers)) {
    const stub = join(dir, file);
    mkdirSync(dirname(stub), { recursive: true });
    const target = relative(dirname(stub), join(dir, `${name}.js`));
    writeFileSync(stub, `export { default } from ${JSON.stringify(`./${target}`.replace('./../', '../'))};\n`);
  }
}

function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}
