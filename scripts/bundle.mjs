#!/usr/bin/env node
// `npm run build` runs this after `tsc -b`: bundles what `@agentest/test` runs into packages/test/dist/bundle/.
// Node compiles and links every ES module on its own, and keeps no code cache for ES modules: the ~400
// modules a run loaded from dist/ cost most of its start-up. So the bundle is one CommonJS script,
// `agentest.cjs`, holding the `agentest` command and the `@agentest/test` and `@agentest/test/kit` entries
// (each module initialised when first used), which packages/test/src/load-bundle.ts compiles with V8's code
// cache: the functions a representative run compiled, saved by running one here, are read back instead of
// parsed and compiled again (half the start-up of a small run). `index.js` and `kit.js` are ES modules taking
// their exports from that one script, so the command and a config that imports `@agentest/test` share one
// kernel (its classes, hook blocks and registries). The script sandbox's worker, a thread of its own, is an ES
// module bundle beside it.
// BUNDLE_META=<file> writes esbuild's metafile there (which modules the script holds).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { Parser } from 'acorn';
import { build } from 'esbuild';
import { recordInputs } from './bundle-inputs.mjs';

const root = new URL('..', import.meta.url).pathname;
const testPackage = join(root, 'packages/test');
const out = join(testPackage, 'dist/bundle');
const SCRIPT = 'agentest.cjs';

/**
 * Third-party packages compiled into the bundle: the small ones every run loads (zod alone is 95 modules).
 * Every other package stays external, loaded from node_modules as before: native code (esbuild), packages
 * that start threads from their own files (piscina), the lazily loaded SDKs and template engine, and the
 * CommonJS config loader (cosmiconfig and its ~40 modules: bundled, a run measured no faster, and its
 * dynamic import would need a facade for its named exports). An external package must be a dependency of
 * @agentest/test, so that it resolves from the bundle wherever npm installs it; the build checks that.
 */
const BUNDLED = new Set(['zod', 'commander', 'tapable', 'lossless-json', 'jsonrepair', 'diff', 're2js']);

/** The script's parts, each `require`d (so initialised) only when the loader asks for it. */
const SCRIPT_PARTS = {
  command: 'packages/cli/dist/command.js',
  index: 'packages/test/dist/index.js',
  kit: 'packages/test/dist/kit.js',
};
/** The ES module entries of `@agentest/test`, each the exports of one part of the script. */
const FACADES = { 'index.js': 'index', 'kit.js': 'kit' };

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

/**
 * Dynamic `import()` in a `vm.Script` fails on Node 20 (it needs an experimental flag, and is lost with a code
 * cache), so each one in the script becomes a call of `__dimp` (as long as `import`, so the source map still
 * fits): the function the loader passes as the wrapper's sixth argument. Loaded by `require` instead (with
 * source maps on, see load-bundle.ts), the script has five, and `__dimp` is a plain `import()`.
 */
const IMPORTER = '__dimp';
const SCRIPT_BANNER = [
  `var ${IMPORTER} = arguments[5] ?? ((specifier, options) => import(specifier, options));`,
  // Each of our modules' `import.meta.url` (mirrored, see MIRRORED) is taken relative to the script's own URL.
  "var __agentestScriptUrl = require('node:url').pathToFileURL(__filename).href;",
].join('\n');

const manifest = JSON.parse(readFileSync(join(testPackage, 'package.json'), 'utf8'));

const COMMON = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  // Paths in the source maps are relative to the bundle, so they name the sources wherever it is installed.
  sourceRoot: '',
  metafile: true,
  logLevel: 'warning',
  plugins: [externalPackages(), mirroredImportMetaUrl()],
};

const started = performance.now();
// Built beside the old bundle and swapped in at the end.
const staging = `${out}-${process.pid}`;
rmSync(staging, { recursive: true, force: true });
let meta;
try {
  meta = await buildScript(staging);
  const workers = await buildWorkers(staging);
  const mirrored = writeMirror(meta, staging);
  writeFacades(staging);
  recordInputs(
    [
      ...[meta, workers]
        .flatMap((metafile) => Object.keys(metafile.inputs))
        .filter((file) => existsSync(join(root, file))),
      ...mirrored,
      'scripts/bundle.mjs',
      'packages/test/package.json',
    ],
    { record: join(staging, 'inputs.json') },
  );
} catch (error) {
  rmSync(staging, { recursive: true, force: true });
  throw error;
}
// Swapped in by two renames, so a command started meanwhile finds a whole bundle, the old or the new.
const previous = `${out}-previous-${process.pid}`;
if (existsSync(out)) renameSync(out, previous);
renameSync(staging, out);
rmSync(previous, { recursive: true, force: true });
if (process.env.BUNDLE_META) writeFileSync(process.env.BUNDLE_META, JSON.stringify(meta));
writeCodeCache();
console.log(
  `bundle: ${relative(root, join(out, SCRIPT))} and its code cache (${Math.round(performance.now() - started)} ms)`,
);

async function buildScript(dir) {
  const result = await build({
    ...COMMON,
    stdin: {
      contents: Object.entries(SCRIPT_PARTS)
        .map(([part, file]) => `exports.${part} = () => require(${JSON.stringify(`./${file}`)});`)
        .join('\n'),
      resolveDir: root,
      sourcefile: 'agentest-script.js',
      loader: 'js',
    },
    outfile: join(dir, SCRIPT),
    format: 'cjs',
    define: { 'import.meta.url': '__agentestScriptUrl' },
    banner: { js: SCRIPT_BANNER },
    write: false,
  });
  mkdirSync(dir, { recursive: true });
  for (const file of result.outputFiles)
    writeFileSync(file.path, file.path.endsWith('.map') ? file.contents : finishScript(file.text));
  return result.metafile;
}

/** Each worker as an ES module of its own (it runs in a thread, with its own copy of what it uses). */
async function buildWorkers(dir) {
  const result = await build({
    ...COMMON,
    entryPoints: Object.fromEntries(Object.entries(MIRRORED.workers).map(([file, name]) => [name, file])),
    outdir: dir,
    format: 'esm',
    // Bundled CommonJS (tapable) calls `require` for Node's built-ins.
    banner: {
      js: "import { createRequire as __agentestCreateRequire } from 'node:module'; const require = __agentestCreateRequire(import.meta.url);",
    },
  });
  return result.metafile;
}

/**
 * The script as the loader needs it: every `import(` a call of IMPORTER, only ASCII (the loader reads it as
 * Latin-1, far faster than UTF-8), and a last line naming a hash of the rest, which names its code caches.
 */
function finishScript(text) {
  // In a script, the keyword `import` followed by `(` is always a dynamic import (`import.meta` is compiled away).
  const calls = [];
  let previous;
  Parser.parse(text, {
    ecmaVersion: 'latest',
    sourceType: 'script',
    onToken(token) {
      if (previous?.type.keyword === 'import' && token.type.label === '(') calls.push(previous.start);
      previous = token;
    },
  });
  let script = '';
  let from = 0;
  for (const at of calls.filter((at) => at >= SCRIPT_BANNER.length)) {
    script += `${text.slice(from, at)}${IMPORTER}`;
    from = at + 'import'.length;
  }
  script += text.slice(from);
  // Non-ASCII is left only where esbuild does not escape it: comments and regular expression literals.
  script = script.replace(/[^\0-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `${script}// agentest-script ${createHash('sha256').update(script).digest('hex').slice(0, 16)}\n`;
}
/** `index.js` and `kit.js`: ES modules whose exports are those of their part of the script. */
function writeFacades(dir) {
  const script = createRequire(import.meta.url)(join(dir, SCRIPT));
  for (const [file, part] of Object.entries(FACADES)) {
    const names = Object.keys(script[part]());
    writeFileSync(
      join(dir, file),
      `// Built by scripts/bundle.mjs: the exports of the bundle's one script, loaded once per process.\n` +
        `import { loadBundle } from '../load-bundle.js';\n\n` +
        `export const { ${names.join(', ')} } = loadBundle().${part}();\n`,
    );
  }
}

/**
 * The code cache shipped with the bundle: the loader saves one when it finds none, so a representative run
 * (the echo agent, ten cases, one assertion each) leaves the functions a run compiles in it. It also proves the
 * bundle runs. A Node of another version makes and keeps its own on its first run.
 */
function writeCodeCache() {
  const work = mkdtempSync(join(tmpdir(), 'agentest-code-cache-'));
  try {
    const cases = Array.from({ length: 10 }, (_, i) =>
      JSON.stringify({ id: `C${i + 1}`, input: `hello ${i + 1}`, assert: [{ type: 'contains', value: 'hello' }] }),
    );
    writeFileSync(join(work, 'cases.jsonl'), `${cases.join('\n')}\n`);
    writeFileSync(join(work, 'package.json'), '{"private": true}\n');
    const env = { ...process.env, NO_COLOR: '1' };
    for (const name of ['DEBUG', 'NODE_OPTIONS']) delete env[name];
    const args = ['test', '-i', 'cases.jsonl', '-n', 'echo', '-o', 'out.jsonl'];
    const run = spawnSync(process.execPath, [join(testPackage, 'bin/agentest.js'), ...args], {
      cwd: work,
      encoding: 'utf8',
      env,
    });
    if (run.status !== 0 || !readdirSync(join(out, 'code-cache')).some((file) => file.endsWith('.cache')))
      throw new Error(
        `scripts/bundle.mjs: the bundled command's representative run (agentest ${args.join(' ')}) ` +
          `exited ${run.status ?? run.signal} or saved no code cache:\n${run.stdout}${run.stderr}`,
      );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

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

/** Writes the mirror (see MIRRORED) into `dir`; returns the files it was made from. */
function writeMirror(metafile, dir) {
  const sources = [];
  const packages = new Set(
    Object.keys(metafile.inputs)
      .map((input) => /^packages\/([^/]+)\//.exec(input)?.[1])
      .filter(Boolean),
  );
  for (const name of packages) {
    const manifestFile = join('packages', name, 'package.json');
    const { version } = JSON.parse(readFileSync(join(root, manifestFile), 'utf8'));
    mkdirSync(join(dir, 'packages', name), { recursive: true });
    writeFileSync(join(dir, manifestFile), `${JSON.stringify({ type: 'module', version })}\n`);
    sources.push(manifestFile);
  }
  const copied = (file) => !/\.(d\.ts|map)$/.test(file);
  for (const path of MIRRORED.copies) {
    cpSync(join(root, path), join(dir, path), { recursive: true, filter: copied });
    for (const file of readdirSync(join(root, path), { recursive: true, withFileTypes: true }))
      if (file.isFile() && copied(file.name)) sources.push(relative(root, join(file.parentPath, file.name)));
  }
  for (const [file, name] of Object.entries(MIRRORED.workers)) {
    const stub = join(dir, file);
    mkdirSync(dirname(stub), { recursive: true });
    const target = relative(dirname(stub), join(dir, `${name}.js`));
    writeFileSync(stub, `export { default } from ${JSON.stringify(`./${target}`.replace('./../', '../'))};\n`);
  }
  return sources;
}

function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}
