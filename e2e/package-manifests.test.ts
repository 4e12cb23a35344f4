// What every public package promises before it is packed: a README and a LICENSE, entry points for old
// and new resolvers, exact versions of its agentest siblings, and commands that exist in a fresh clone.
// The packed tarballs themselves are checked by e2e/installed-package.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HANG_MS } from './helpers/deadlines.js';

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  main?: string;
  types?: string;
  files?: string[];
  bin?: Record<string, string>;
  exports?: Record<string, Record<string, string>>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const packages = readdirSync(join(root, 'packages'))
  .map((folder) => ({
    dir: join(root, 'packages', folder),
    manifest: JSON.parse(readFileSync(join(root, 'packages', folder, 'package.json'), 'utf8')) as Manifest,
  }))
  .filter(({ manifest }) => !manifest.private);
const versions = new Map(packages.map(({ manifest }) => [manifest.name, manifest.version]));

test('there are public packages, and the one users install is @agentest/test with the agentest command', () => {
  assert.ok(packages.length >= 20, `found ${packages.length}`);
  const user = packages.find(({ manifest }) => manifest.name === '@agentest/test');
  assert.ok(user, '@agentest/test exists');
  assert.ok(user.manifest.bin?.agentest, 'it provides the agentest command');
  const others = packages.filter(({ manifest }) => manifest.name !== '@agentest/test' && manifest.bin?.agentest);
  assert.deepEqual(
    others.map(({ manifest }) => manifest.name),
    [],
    'no other package claims the agentest command',
  );
});

for (const { dir, manifest } of packages) {
  test(`${manifest.name}: README, LICENSE, entry points and exact sibling versions`, () => {
    const readme = readFileSync(join(dir, 'README.md'), 'utf8');
    assert.match(
      readme,
      new RegExp(`^# ${manifest.name.replace('/', '\\/')}\\n`),
      'the README starts with the package name',
    );
    assert.match(
      readme,
      new RegExp(`npm i(nstall)? (-D )?${manifest.name.replace('/', '\\/')}`),
      'the README says how to install it',
    );
    assert.match(readme, /```(ts|js|sh|jsonl|json)\n/, 'the README has a usage example');
    assert.match(readFileSync(join(dir, 'LICENSE'), 'utf8'), /^MIT License\n/);
    assert.equal(manifest.license, 'MIT');

    assert.ok(manifest.files?.includes('dist'), 'ships dist');
    const entry = manifest.exports?.['.'];
    assert.ok(entry, 'has an exports map');
    assert.equal(
      Object.keys(entry)[0],
      '@agentest/source',
      'the source condition comes first, so tests run from source',
    );
    assert.equal(manifest.main, entry.default, 'main (node10 resolution) is the exports entry');
    assert.equal(manifest.types, entry.types, 'types (node10 resolution) are the exports types');

    for (const field of ['dependencies', 'devDependencies', 'peerDependencies'] as const) {
      for (const [name, range] of Object.entries(manifest[field] ?? {})) {
        if (!name.startsWith('@agentest/')) continue;
        assert.equal(range, versions.get(name), `${field}.${name} names the exact version ${versions.get(name)}`);
      }
    }
  });

  for (const [command, target] of Object.entries(manifest.bin ?? {})) {
    test(`${manifest.name}: the ${command} command is a committed file that explains a missing build`, () => {
      assert.doesNotMatch(target, /^\.\//, 'npm publish rewrites bin paths that start with ./');
      assert.doesNotMatch(target, /^dist\//, 'npm links bins before `prepare` builds dist/');
      assert.ok(manifest.files?.includes(dirname(target)), `${dirname(target)} is published`);
      // Tracked by git, so a fresh clone has it before any build. (A CI container's checkout may belong to another
      // user, which git refuses to read unless told the folder is safe.)
      execFileSync('git', ['-c', 'safe.directory=*', 'ls-files', '--error-unmatch', target], {
        cwd: dir,
        stdio: 'ignore',
      });

      const copy = mkdtempSync(join(tmpdir(), 'agentest-bin-'));
      mkdirSync(join(copy, dirname(target)), { recursive: true });
      copyFileSync(join(dir, 'package.json'), join(copy, 'package.json'));
      copyFileSync(join(dir, target), join(copy, target));
      assert.ok(!existsSync(join(copy, 'dist')));
      const run = spawnSync(process.execPath, [join(copy, target), '--help'], { encoding: 'utf8', timeout: HANG_MS });
      assert.equal(run.status, 2);
      assert.equal(run.stdout, '');
      assert.match(
        run.stderr,
        new RegExp(`^${command} is not built: .*dist/.*\\.js is missing\\.\\n.*run \`npm run build\``),
      );
      assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
    });
  }
}
