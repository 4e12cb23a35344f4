import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fixture, PASSING } from './helpers.js';
import { agentestInProcess } from './in-process.js';

// Plugins and reporters named by package: resolved as Node's `import` resolves them from the config
// file's folder (not the working directory, not agentest's own), each factory given its options.

/** A package in `node_modules` whose `exports` has only an `import` entry, as ESM-only packages do. */
function esmPackage(name: string, code: string): Record<string, string> {
  return {
    [`project/node_modules/${name}/package.json`]: JSON.stringify({
      name,
      type: 'module',
      exports: { '.': { types: './index.d.ts', import: './index.js' } },
    }),
    [`project/node_modules/${name}/index.js`]: code,
  };
}

/** A reporter factory that records the options it was given, one JSON line per call. */
const RECORDING_REPORTER = `import { appendFileSync } from 'node:fs';
export default function recording(options) {
  appendFileSync(${JSON.stringify('SEEN')}, JSON.stringify(options) + '\\n');
  return { name: 'recording:' + (options.tag ?? 'plain'), apply() {} };
}
`;

function seen(dir: string): Record<string, unknown>[] {
  return readFileSync(join(dir, 'seen.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

test('plugins by package name and [name, options] load from the config folder and get their options', async () => {
  const plugin = `import { appendFileSync } from 'node:fs';
export default (options = {}) => ({
  name: 'acme:' + (options.label ?? 'default'),
  apply({ hooks }) { hooks.setup.tap('acme', () => appendFileSync(options.out ?? 'plugin.log', (options.label ?? 'default') + '\\n')); },
});
`;
  const dir = fixture({});
  const log = JSON.stringify(join(dir, 'plugin.log'));
  const files = {
    'elsewhere/.keep': '',
    'project/package.json': '{"name": "project", "private": true, "type": "module"}',
    'project/ok.jsonl': PASSING,
    'project/agentest.config.mjs': `export default { plugins: [['acme-plugin', { out: ${log} }], ['acme-plugin', { label: 'B', out: ${log} }]] };`,
    ...esmPackage('acme-plugin', plugin),
  };
  for (const [name, text] of Object.entries(files)) fixtureFile(dir, name, text);
  const config = join(dir, 'project/agentest.config.mjs');
  const run = await agentestInProcess(['test', '-i', '../project/ok.jsonl', '-n', 'echo', '--config', config], {
    cwd: join(dir, 'elsewhere'),
  });
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(readFileSync(join(dir, 'plugin.log'), 'utf8').split('\n'), ['default', 'B', '']);
});

test('every reporter form gets the same injected options: package, [package, options], path, factory, --reporter', async () => {
  const dir = fixture({});
  const recorder = RECORDING_REPORTER.replace('"SEEN"', JSON.stringify(join(dir, 'seen.jsonl')));
  const files = {
    'project/package.json': '{"name": "project", "private": true, "type": "module"}',
    'project/ok.jsonl': PASSING,
    'project/local-reporter.mjs': recorder,
    'project/agentest.config.mjs': `import recording from './local-reporter.mjs';
export default { reporters: ['acme-reporter', ['acme-reporter', { tag: 'tuple' }], './local-reporter.mjs', recording] };`,
    ...esmPackage('acme-reporter', recorder),
  };
  for (const [name, text] of Object.entries(files)) fixtureFile(dir, name, text);
  const project = join(dir, 'project');
  // No default files: two runs within a second would plan their reporters again under a new name.
  const fromConfig = await agentestInProcess(['test', '-i', 'ok.jsonl', '-n', 'echo', '--no-color', '--no-jsonl'], {
    cwd: project,
  });
  assert.equal(fromConfig.code, 0, fromConfig.stderr);
  const flag = await agentestInProcess(
    ['test', '-i', 'ok.jsonl', '-n', 'echo', '--no-color', '--no-jsonl', '--reporter', 'acme-reporter'],
    { cwd: project },
  );
  assert.equal(flag.code, 0, flag.stderr);

  const all = seen(dir);
  assert.equal(all.length, 5, 'four config entries and the flag');
  assert.equal(all[1]!.tag, 'tuple', "the entry's own options are kept");
  const injected = all.map(({ tag: _tag, ...rest }) => rest);
  for (const options of injected) assert.deepEqual(options, { cwd: project, verbose: false, color: false });
});

test('a plugin or reporter package whose entry is TypeScript is a configuration error naming the entry', async () => {
  const tsPackage = (name: string, field: 'exports' | 'main') => ({
    [`node_modules/${name}/package.json`]: JSON.stringify({ name, type: 'module', [field]: './src/index.ts' }),
    [`node_modules/${name}/src/index.ts`]: `export default (): { name: string; apply(): void } => ({ name: '${name}', apply() {} });\n`,
  });
  const dir = fixture({
    'ok.jsonl': PASSING,
    'agentest.config.mjs': `export default { plugins: [{ name: 'fine', apply() {} }, 'ts-plugin'] };`,
    ...tsPackage('ts-plugin', 'exports'),
  });
  const plugin = await agentestInProcess(['test', '-i', 'ok.jsonl', '-n', 'echo'], { cwd: dir });
  assert.equal(plugin.code, 2, plugin.stderr);
  assert.match(
    plugin.stderr,
    /error\[PLUGIN_INVALID\]: .*plugins\[1\]: plugin package "ts-plugin" points its entry at TypeScript .*packages must ship JavaScript: build the package first/,
  );

  const bare = fixture({ 'ok.jsonl': PASSING, ...tsPackage('ts-reporter', 'main') });
  const reporter = await agentestInProcess(['test', '-i', 'ok.jsonl', '-n', 'echo', '--reporter', 'ts-reporter'], {
    cwd: bare,
  });
  assert.equal(reporter.code, 2, reporter.stderr);
  assert.match(reporter.stderr, /reporters\[0\]: reporter package "ts-reporter" .*packages must ship JavaScript/);
});

test('a plugin package that is not installed, or is not a factory, says which entry and what to do', async () => {
  const dir = fixture({
    'ok.jsonl': PASSING,
    'agentest.config.mjs': `export default { plugins: [['not-installed', { a: 1 }]] };`,
    'not-a-factory.mjs': `export default { name: 'object' };`,
  });
  const missing = await agentestInProcess(['test', '-i', 'ok.jsonl', '-n', 'echo'], { cwd: dir });
  assert.equal(missing.code, 2, missing.stderr);
  assert.match(
    missing.stderr,
    /plugins\[0\]: plugin package "not-installed" is not installed .*npm i -D not-installed/,
  );

  const wrong = fixture({
    'ok.jsonl': PASSING,
    'agentest.config.mjs': `export default { plugins: ['./not-a-factory.mjs'] };`,
    'not-a-factory.mjs': `export default { name: 'object' };`,
  });
  const notFactory = await agentestInProcess(['test', '-i', 'ok.jsonl', '-n', 'echo'], { cwd: wrong });
  assert.equal(notFactory.code, 2, notFactory.stderr);
  assert.match(notFactory.stderr, /plugins\[0\]: "\.\/not-a-factory\.mjs" must default-export a plugin factory/);
});

/** One more file in a fixture: the recorder's code needs the fixture's path first. */
function fixtureFile(dir: string, name: string, text: string): void {
  const file = join(dir, name);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

test("a config plugin's configKey is accepted, its section handed to configure(); a misspelt key is refused with a did-you-mean", async () => {
  const plugin = (seen: string) => `{
    name: 'acme:slack',
    configKey: 'slack',
    configure(section) {
      if (typeof section.channel !== 'string') throw new Error('"channel" must be a string');
      writeFileSync(${JSON.stringify(seen)}, JSON.stringify(section));
    },
    apply() {},
  }`;
  const dir = fixture({ 'ok.jsonl': PASSING });
  const seen = join(dir, 'seen.json');
  // A file per config: a module imported once stays cached in this process.
  const config = (rest: string) =>
    `import { writeFileSync } from 'node:fs';\nexport default { plugins: [${plugin(seen)}], ${rest} };`;

  writeFileSync(join(dir, 'config-1.mjs'), config(`slack: { channel: '#agents' }`));
  const accepted = await agentestInProcess(
    ['test', '-i', 'ok.jsonl', '-n', 'echo', '--config', 'config-1.mjs', '--no-jsonl'],
    { cwd: dir },
  );
  assert.equal(accepted.code, 0, accepted.stderr);
  assert.deepEqual(JSON.parse(readFileSync(seen, 'utf8')), { channel: '#agents' });

  writeFileSync(join(dir, 'config-2.mjs'), config(`slak: { channel: '#agents' }`));
  const typo = await agentestInProcess(['test', '-i', 'ok.jsonl', '-n', 'echo', '--config', 'config-2.mjs'], {
    cwd: dir,
  });
  assert.equal(typo.code, 2, typo.stderr);
  assert.match(
    typo.stderr,
    /error\[CONFIG_INVALID\]: .*: slak: unknown key \(did you mean "slack"\?\); known keys: .*, slack\n/,
  );

  writeFileSync(join(dir, 'config-3.mjs'), config(`slack: { channel: 7 }`));
  const refused = await agentestInProcess(['test', '-i', 'ok.jsonl', '-n', 'echo', '--config', 'config-3.mjs'], {
    cwd: dir,
  });
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(
    refused.stderr,
    /error\[CONFIG_INVALID\]: .*: slack: plugin "acme:slack" refused it: "channel" must be a string/,
  );

  writeFileSync(join(dir, 'config-4.mjs'), `export default { reporter: ['console'] };`);
  const undeclared = await agentestInProcess(['test', '-i', 'ok.jsonl', '-n', 'echo', '--config', 'config-4.mjs'], {
    cwd: dir,
  });
  assert.equal(undeclared.code, 2, undeclared.stderr);
  assert.match(undeclared.stderr, /reporter: unknown key \(did you mean "reporters"\?\)/);
});
