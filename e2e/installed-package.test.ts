// What proves the packaging: the packed tarballs, installed with one `npm install` into a project
// outside the repository, run a suite through `npx agentest` with an adapter and a reporter from
// another package named in the config, and the project's config and plugin type-check with `strict`, as
// does a fresh project's use of the package without @types/node and without `skipLibCheck`.
// The install uses the npm cache (`--prefer-offline`): after `npm ci` every third-party package is in it.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { finished, stackFrames, type CliRun } from './helpers/cli.js';
import { workspace } from './helpers/workspace.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const fixture = fileURLToPath(new URL('./fixtures/adopter/', import.meta.url));
const freshFixture = fileURLToPath(new URL('./fixtures/fresh-types/', import.meta.url));
// Hang deadlines only. On an idle machine each step takes seconds to a minute; at a machine load of 35 on 2 cores
// packing took under 2 minutes, the install 5.5, and each tsc of the project (18 s of CPU: it type-checks
// @agentest/test's declarations and @types/node) 2 to over 3 minutes.
const PACK_LIMIT_MS = 10 * 60_000;
const INSTALL_LIMIT_MS = 20 * 60_000;
const STEP_LIMIT_MS = 10 * 60_000;

let work: string;
let project: string;
let tarballs: Map<string, string>;

/** The environment of a shell outside any npm script: `npm test` sets npm_* variables that point at the repository. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  return { ...env, NO_COLOR: '1', GITHUB_ACTIONS: '', DEBUG: '', npm_config_update_notifier: 'false' };
}

function run(command: string, args: readonly string[], cwd: string, limitMs: number): Promise<CliRun> {
  const child = spawn(command, args, { cwd, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  return finished(child, limitMs, [command, ...args].join(' '));
}

const show = (r: CliRun) => `exit ${r.code}\nstdout:\n${r.stdout.slice(-4000)}\nstderr:\n${r.stderr.slice(-4000)}`;

before(
  async () => {
    work = realpathSync(workspace('install'));
    assert.ok(relative(root, work).startsWith('..'), `${work} is outside the repository`);
    const packed = await run(
      process.execPath,
      [join(root, 'scripts/pack.mjs'), '--out', join(work, 'tarballs')],
      root,
      PACK_LIMIT_MS,
    );
    assert.equal(packed.code, 0, `npm run pack: every tarball passes publint and arethetypeswrong\n${show(packed)}`);
    // pack.mjs prints `✓ <name>  <tarball>` for every package it packed and checked.
    tarballs = new Map(
      [...packed.stdout.matchAll(/^✓ (\S+) +(\S+\.tgz)$/gm)].map(([, name, file]) => [
        name!,
        `file:${join(work, 'tarballs', file!)}`,
      ]),
    );
    assert.ok(tarballs.has('@agentest/test'), packed.stdout);
  },
  { timeout: PACK_LIMIT_MS + 60_000 },
);

/**
 * Writes the project's package.json and runs `npm install` in it. What a user writes: @agentest/test and
 * `others`. The other @agentest packages are not on a registry here, so overrides point npm at their
 * tarballs; a dependency @agentest/test forgot to declare stays missing.
 */
function installProject(dir: string, name: string, others: Record<string, string>): Promise<CliRun> {
  const siblings = Object.fromEntries([...tarballs].filter(([pkg]) => pkg !== '@agentest/test'));
  const devDependencies = { '@agentest/test': tarballs.get('@agentest/test'), ...others };
  const manifest = { name, private: true, type: 'module', devDependencies, overrides: siblings };
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...manifest, allowScripts: { esbuild: false } }, null, 2));
  return run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], dir, INSTALL_LIMIT_MS);
}

test(
  "the tarballs install with one npm install, and the agentest command is @agentest/test's",
  { timeout: INSTALL_LIMIT_MS + 60_000 },
  async () => {
    project = join(work, 'project');
    cpSync(fixture, project, { recursive: true });
    const install = await installProject(project, 'adopter', {
      'agentest-reporter-count': 'file:./reporter',
      '@types/node': '20.19.43',
      typescript: '6.0.3',
    });
    assert.equal(install.code, 0, show(install));
    const bin = realpathSync(join(project, 'node_modules/.bin/agentest'));
    assert.equal(bin, join(realpathSync(join(project, 'node_modules/@agentest/test')), 'bin/agentest.js'));
    assert.ok(existsSync(join(project, 'node_modules/@agentest/test/dist/index.js')), 'dist is shipped');
    assert.ok(existsSync(join(project, 'node_modules/@agentest/test/LICENSE')), 'the LICENSE is shipped');
  },
);

test(
  'the config and the reporter package type-check with strict (config-mistakes.ts shows the types catch errors), and the reporter builds to JavaScript',
  { timeout: 2 * STEP_LIMIT_MS + 30_000 },
  async () => {
    const reporter = await run(
      process.execPath,
      [join(project, 'node_modules/typescript/bin/tsc'), '-p', 'reporter'],
      project,
      STEP_LIMIT_MS,
    );
    assert.equal(reporter.code, 0, show(reporter));
    assert.ok(existsSync(join(project, 'reporter/dist/index.js')));
    const config = await run(
      process.execPath,
      [join(project, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', '.'],
      project,
      STEP_LIMIT_MS,
    );
    assert.equal(config.code, 0, show(config));
  },
);

test(
  'a fresh project without @types/node type-checks its use of @agentest/test with strict and skipLibCheck off',
  { timeout: INSTALL_LIMIT_MS + STEP_LIMIT_MS + 60_000 },
  async () => {
    // Outside the adopter's folder, whose node_modules/@types/node tsc would otherwise find and include.
    const fresh = join(work, 'fresh');
    cpSync(freshFixture, fresh, { recursive: true });
    const install = await installProject(fresh, 'fresh', {});
    assert.equal(install.code, 0, show(install));
    assert.ok(!existsSync(join(fresh, 'node_modules/@types/node')), 'nothing installs @types/node');
    // The adopter's TypeScript: this project needs no copy of its own to be checked.
    const tsc = join(project, 'node_modules/typescript/bin/tsc');
    const types = await run(process.execPath, [tsc, '-p', '.'], fresh, STEP_LIMIT_MS);
    assert.equal(types.code, 0, show(types));
  },
);

test(
  'npx agentest runs the suite with the adapter and the reporter loaded by package name',
  { timeout: STEP_LIMIT_MS + 30_000 },
  async () => {
    // The code cache the build made ships in the package, and this Node takes it: the run writes no other.
    const caches = () =>
      readdirSync(join(project, 'node_modules/@agentest/test/dist/bundle/code-cache'), { withFileTypes: true }).map(
        (file) => `${file.name} ${statSync(join(file.parentPath, file.name)).mtimeMs}`,
      );
    const shipped = caches();
    assert.equal(shipped.length, 1, shipped.join('\n'));
    const result = await run(
      'npx',
      ['--no-install', 'agentest', 'test', '-i', 'tests/inputs.jsonl'],
      project,
      STEP_LIMIT_MS,
    );
    // T3 fails on purpose: the exit code must say a case failed.
    assert.equal(result.code, 1, show(result));
    assert.deepEqual(caches(), shipped);
    assert.ok(!existsSync(join(project, 'node_modules/.cache/agentest')));
    assert.deepEqual(stackFrames(result.stderr), []);
    assert.match(result.stdout, /T3/);

    const count = JSON.parse(readFileSync(join(project, 'reports/count.json'), 'utf8'));
    assert.deepEqual(count, { total: 3, counts: { passed: 2, failed: 1 }, verbose: false });
    const report = JSON.parse(readFileSync(join(project, 'reports/report.json'), 'utf8'));
    assert.equal(report.summary.total, 3);
    assert.equal(report.summary.passed, 2);
    assert.equal(report.summary.failed, 1);
    assert.equal(report.summary.agent_id, 'shout');
  },
);

test(
  'npx agentest init scaffolds a project whose suite passes with the installed package and whose files type-check with strict',
  { timeout: 3 * STEP_LIMIT_MS + 30_000 },
  async () => {
    const init = await run('npx', ['--no-install', 'agentest', 'init', 'scaffolded'], project, STEP_LIMIT_MS);
    assert.equal(init.code, 0, show(init));
    assert.match(init.stdout, /Next:\n {2}cd scaffolded\n {2}npm i -D @agentest\/test\n {2}npx agentest test\n/);
    const scaffolded = join(project, 'scaffolded');
    const suite = await run('npx', ['--no-install', 'agentest', 'test'], scaffolded, STEP_LIMIT_MS);
    assert.equal(suite.code, 0, show(suite));
    assert.match(suite.stdout, /Passed: +3\n/);
    assert.ok(existsSync(join(scaffolded, 'agentest-report/index.html')), 'the report the workflow uploads');

    writeFileSync(
      join(scaffolded, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          allowImportingTsExtensions: true,
          types: ['node'],
          noEmit: true,
        },
        include: ['agentest.config.ts', 'tests/agent.ts'],
      }),
    );
    const types = await run(
      process.execPath,
      [join(project, 'node_modules/typescript/bin/tsc'), '-p', '.'],
      scaffolded,
      STEP_LIMIT_MS,
    );
    assert.equal(types.code, 0, show(types));
  },
);

test('npm publish --dry-run corrects nothing in any manifest', { timeout: PACK_LIMIT_MS }, async () => {
  const dry = await run('npm', ['publish', '--dry-run', '--workspaces', '--offline'], root, PACK_LIMIT_MS);
  assert.equal(dry.code, 0, show(dry));
  assert.doesNotMatch(dry.stderr, /auto-corrected|errors corrected|was invalid and removed/, dry.stderr);
  for (const name of tarballs.keys()) assert.match(dry.stdout, new RegExp(`^\\+ ${name.replace('/', '\\/')}@`, 'm'));
});
