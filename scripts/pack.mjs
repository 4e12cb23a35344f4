#!/usr/bin/env node
// `npm run pack [-- --out <dir>]`: builds (tsc -b, then the bundle), packs every public workspace into one
// folder (`.pack/` by default) and checks each tarball as the registry's users will see it: publint, and
// arethetypeswrong for types under the node10, node16 and bundler resolutions. Exits 1 on any problem.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';

const root = new URL('..', import.meta.url).pathname;
const { values } = parseArgs({ options: { out: { type: 'string', default: join(root, '.pack') } } });
const out = resolve(values.out);

/**
 * agentest packages are ESM only, so a `require()` of one resolving to ESM is by design (Node 20.12+
 * and bundlers load it; TypeScript users get a clear error). Every other rule applies.
 */
const IGNORED_ATTW_PROBLEMS = new Set(['CJSResolvesToESM']);

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, encoding: 'utf8', ...options });
  if (result.status !== 0) {
    process.stderr.write(result.stderr ?? '');
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
  }
  return result.stdout;
}

/**
 * `tsc -b` never deletes outputs of a source that is gone; they must not be published. dist/bundle/ is
 * scripts/bundle.mjs's, which rebuilds it from scratch.
 */
function removeOrphanOutputs(pkgDir) {
  const dist = join(pkgDir, 'dist');
  if (!existsSync(dist)) return;
  for (const file of readdirSync(dist, { recursive: true })) {
    if (String(file).startsWith('bundle')) continue;
    const stem = String(file).replace(/(\.d)?\.js(\.map)?$|\.d\.ts(\.map)?$/, '');
    if (stem === String(file) || existsSync(join(pkgDir, 'src', `${stem}.ts`))) continue;
    rmSync(join(dist, String(file)));
    console.log(`removed ${relative(root, join(dist, String(file)))}: its source is gone`);
  }
}

async function problemsOf(tarball) {
  const data = readFileSync(tarball);
  const lint = await publint({
    pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) },
    level: 'suggestion',
    strict: true,
  });
  const problems = lint.messages.map((message) => `publint: ${formatMessage(message, lint.pkg, { color: false })}`);
  const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(data)));
  if (analysis.types === false) problems.push('attw: the package has no types');
  for (const problem of analysis.problems ?? []) {
    if (IGNORED_ATTW_PROBLEMS.has(problem.kind)) continue;
    const where = 'entrypoint' in problem ? ` at "${problem.entrypoint}" (${problem.resolutionKind})` : '';
    problems.push(`attw: ${problem.kind}${where}`);
  }
  return problems;
}

const workspaces = readdirSync(join(root, 'packages'))
  .map((name) => join(root, 'packages', name))
  .filter(
    (dir) =>
      existsSync(join(dir, 'package.json')) && !JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).private,
  );
workspaces.forEach(removeOrphanOutputs);
run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b'], { stdio: ['ignore', 'inherit', 'pipe'] });
run(process.execPath, [join(root, 'scripts/bundle.mjs')], { stdio: ['ignore', 'inherit', 'pipe'] });

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const packed = JSON.parse(
  run('npm', ['pack', '--json', '--pack-destination', out, ...workspaces.flatMap((dir) => ['-w', dir])]),
);

let failed = 0;
for (const { name, filename } of packed) {
  const problems = await problemsOf(join(out, filename));
  failed += problems.length ? 1 : 0;
  console.log(problems.length ? `✗ ${name}\n${problems.map((p) => `    ${p}`).join('\n')}` : `✓ ${name}  ${filename}`);
}
console.log(
  `${packed.length} packages packed into ${relative(process.cwd(), out) || '.'}${failed ? `; ${failed} with problems` : ''}`,
);
process.exit(failed ? 1 : 0);
