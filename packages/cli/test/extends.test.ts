import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../src/config/load-config.js';
import { mergeConfigs } from '../src/config/merge-configs.js';
import { normaliseConfig } from '../src/config/normalise-config.js';
import { agentest, fixture, jsonl } from './helpers.js';
import { agentestInProcess } from './in-process.js';

const SHOUT = `export const shout = {
  run: async (messages: { content: string }[]) => ({ content: messages.at(-1)!.content.toUpperCase(), text: '' }),
};
`;

test('mergeConfigs: objects merge deeply, plugins and reporters add up, other lists are replaced', () => {
  const plugin = { name: 'p', apply() {} };
  const other = { name: 'q', apply() {} };
  const merged = mergeConfigs(
    {
      plugins: [plugin],
      reporters: ['console', ['junit', { output: 'a.xml' }]],
      test: { parallel: 4, timeout: '30s', suites: ['base.jsonl'] },
      thresholds: { pass_rate: 0.9 },
      projects: ['a'],
    },
    {
      plugins: [plugin, other],
      reporters: [['junit', { output: 'b.xml' }], 'html', 'html'],
      test: { parallel: 1, suites: ['own.jsonl'], timeout: undefined },
      thresholds: { keyword_hit_rate: 0.7 },
      projects: ['b'],
    },
  );
  assert.deepEqual(merged, {
    plugins: [plugin, other],
    reporters: ['console', ['junit', { output: 'b.xml' }], 'html', 'html'],
    test: { parallel: 1, timeout: '30s', suites: ['own.jsonl'] },
    thresholds: { pass_rate: 0.9, keyword_hit_rate: 0.7 },
    projects: ['b'],
  });
});

test("a config extends a base in another folder: the base's inputs resolve there, outputs stay in the project", async () => {
  const dir = fixture({
    'shared/base.config.ts': `import { shout } from './agents/shout.ts';
export default {
  agents: { shout },
  reporters: ['./reporters/quiet.ts', ['json', { output: 'reports/run.json' }]],
  test: { timeout: '30s', parallel: 2, ctx: 'context.json' },
  thresholds: { pass_rate: 0.5 },
};
`,
    'shared/agents/shout.ts': SHOUT,
    'shared/reporters/quiet.ts': `export default { name: 'quiet' };\n`,
    'shared/context.json': '{"locale": "en"}\n',
    'app/agentest.config.ts': `export default { extends: '../shared/base.config.ts', test: { parallel: 1 }, thresholds: { pass_rate: 1 } };\n`,
    'app/cases.jsonl': jsonl([{ id: 'E1', input: 'hi', expected: 'HI' }]),
  });
  const loaded = await loadConfig({ cwd: join(dir, 'app') });
  assert.equal(loaded.filepath, join(dir, 'app', 'agentest.config.ts'));
  const config = loaded.config as Record<string, any>;
  assert.equal(config.extends, undefined);
  assert.deepEqual(config.test, { timeout: '30s', parallel: 1, ctx: join(dir, 'shared', 'context.json') });
  assert.deepEqual(config.thresholds, { pass_rate: 1 });
  assert.deepEqual(config.reporters, [
    join(dir, 'shared/reporters/quiet.ts'),
    ['json', { output: 'reports/run.json' }],
  ]);

  const run = await agentest(['test', '-i', 'cases.jsonl', '-n', 'shout'], { cwd: join(dir, 'app') });
  assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
  const report = JSON.parse(readFileSync(join(dir, 'app', 'reports', 'run.json'), 'utf8'));
  assert.equal(report.summary.passed, 1);
});

test('extends takes a package name and a list, applied in order; a YAML config can extend too', async () => {
  const dir = fixture({
    'node_modules/@acme/agentest-config/package.json':
      '{"name": "@acme/agentest-config", "type": "module", "main": "index.js"}\n',
    'node_modules/@acme/agentest-config/index.js': `export default { test: { timeout: '10s', runs: 2 }, thresholds: { pass_rate: 0.8 } };\n`,
    'strict.config.json': '{"thresholds": {"pass_rate": 0.95}, "test": {"runs": 3}}\n',
    '.agentestrc.yaml': 'extends: ["@acme/agentest-config", "./strict.config.json"]\ntest:\n  parallel: 3\n',
  });
  const config = (await loadConfig({ cwd: dir })).config as Record<string, any>;
  assert.deepEqual(config.test, { timeout: '10s', runs: 3, parallel: 3 });
  assert.deepEqual(config.thresholds, { pass_rate: 0.95 });
});

test('configs that extend each other are an error naming the chain of files', async () => {
  const dir = fixture({
    'agentest.config.ts': `export default { extends: './configs/a.config.ts' };\n`,
    'configs/a.config.ts': `export default { extends: './b.config.ts' };\n`,
    'configs/b.config.ts': `export default { extends: './a.config.ts' };\n`,
    'cases.jsonl': jsonl([{ id: 'C1', input: 'hi' }]),
  });
  const run = await agentestInProcess(['test', '-i', 'cases.jsonl', '-n', 'echo'], { cwd: dir });
  assert.equal(run.code, 2);
  assert.match(
    run.stderr,
    /error\[CONFIG_INVALID\]: .*b\.config\.ts: extends: the configs extend each other in a cycle: agentest\.config\.ts → configs\/a\.config\.ts → configs\/b\.config\.ts → configs\/a\.config\.ts/,
  );
});

test('a base that cannot be found is an error naming the config, the entry and where it looked', async () => {
  const dir = fixture({
    'agentest.config.ts': `export default { extends: ['./base.config.ts', '@acme/missing'] };\n`,
    'base.config.ts': 'export default {};\n',
    'cases.jsonl': jsonl([{ id: 'C1', input: 'hi' }]),
  });
  const run = await agentestInProcess(['test', '-i', 'cases.jsonl', '-n', 'echo'], { cwd: dir });
  assert.equal(run.code, 2);
  assert.match(
    run.stderr,
    /error\[CONFIG_LOAD_FAILED\]: .*agentest\.config\.ts: extends\[1\]: "@acme\/missing" cannot be loaded/,
  );
  const wrongType = fixture({ 'agentest.config.json': '{"extends": 3}' });
  const bad = await agentestInProcess(['test', '-i', 'hi', '-n', 'echo'], { cwd: wrongType });
  assert.equal(bad.code, 2);
  assert.match(
    bad.stderr,
    /error\[CONFIG_INVALID\]: .*agentest\.config\.json: extends: expected a config path or package name/,
  );
});

test('a base two others extend is loaded once: its plugin is applied once', async () => {
  const dir = fixture({
    'shared.config.ts': `export default { plugins: [{ name: 'shared', apply() {} }], thresholds: { pass_rate: 0.9 } };\n`,
    'b.config.ts': `export default { extends: './shared.config.ts', test: { runs: 2 } };\n`,
    'c.config.ts': `export default { extends: './shared.config.ts', test: { parallel: 2 } };\n`,
    'agentest.config.ts': `export default { extends: ['./b.config.ts', './c.config.ts'] };\n`,
  });
  const config = (await loadConfig({ cwd: dir })).config as Record<string, any>;
  assert.deepEqual(
    config.plugins.map((p: { name: string }) => p.name),
    ['shared'],
  );
  assert.deepEqual(config.test, { runs: 2, parallel: 2 });
});

/** A package in `node_modules` whose default export makes a plugin (or reporter) named `name`. */
const pluginPackage = (pkg: string, name: string) => ({
  [`node_modules/${pkg}/package.json`]: `{"name": "${pkg}", "type": "module", "main": "index.js"}\n`,
  [`node_modules/${pkg}/index.js`]: `export default () => ({ name: '${name}', apply() {} });\n`,
});

test("a package a base config names resolves from the base's own folder, as Node's import would from that file", async () => {
  const dir = fixture({
    ...Object.fromEntries(
      Object.entries({ ...pluginPackage('acme-plugin', 'shared copy'), ...pluginPackage('acme-only', 'only') }).map(
        ([path, text]) => [`shared/${path}`, text],
      ),
    ),
    ...Object.fromEntries(Object.entries(pluginPackage('acme-plugin', 'app copy')).map(([p, t]) => [`app/${p}`, t])),
    'shared/base.config.ts': `export default { plugins: ['acme-plugin', ['acme-only', {}]], reporters: ['json', 'acme-only'] };\n`,
    'app/agentest.config.ts': `export default { extends: '../shared/base.config.ts' };\n`,
  });
  const loaded = await loadConfig({ cwd: join(dir, 'app') });
  const config = await normaliseConfig(loaded.config, { cwd: join(dir, 'app'), file: loaded.filepath! });
  assert.deepEqual(
    config.plugins.map((p) => p.name),
    ['shared copy', 'only'],
  );
  assert.deepEqual(
    config.reporters!.map((r) => [r.kind, r.kind === 'plugin' ? r.name : r.name.replace(dir, '')]),
    [
      ['builtin', 'json'],
      ['module', '/shared/node_modules/acme-only/index.js'],
    ],
  );

  writeFileSync(join(dir, 'shared/base.config.ts'), `export default { plugins: ['acme-missing'] };\n`);
  await assert.rejects(loadConfig({ cwd: join(dir, 'app') }), (error: Error) =>
    /base\.config\.ts: plugins\[0\]: plugin package "acme-missing" is not installed where that config is \(looked from .*shared\)/.test(
      error.message,
    ),
  );
});

test('a change in a base config changes the config hash the history records and the blob header carry', async () => {
  const dir = fixture({
    'shared/base.config.ts': `export default { thresholds: { pass_rate: 0.5 } };\n`,
    'agentest.config.ts': `export default { extends: './shared/base.config.ts' };\n`,
    'cases.jsonl': jsonl([{ id: 'E1', input: 'hi' }]),
  });
  const hashes = async () => {
    const run = await agentestInProcess(['test', '-i', 'cases.jsonl', '-n', 'echo', '--no-jsonl', '--blob-dir', 'b'], {
      cwd: dir,
    });
    assert.equal(run.code, 0, run.stderr);
    const firstLines = (folder: string) =>
      readdirSync(join(dir, folder)).map((f) => JSON.parse(readFileSync(join(dir, folder, f), 'utf8').split('\n')[0]!));
    return {
      history: new Set(firstLines('.agentest/history').map((r) => r.config_hash)),
      blob: new Set(firstLines('b').map((h) => h.config_hash)),
    };
  };
  const before = await hashes();
  assert.equal(before.history.size, 1);
  writeFileSync(join(dir, 'shared/base.config.ts'), `export default { thresholds: { pass_rate: 0.9 } };\n`);
  const after = await hashes();
  assert.equal(after.history.size, 2, 'the second run is recorded with another config hash');
  assert.equal(after.blob.size, 1, 'the second run writes the same blob again');
  assert.notDeepEqual(after.blob, before.blob, 'the blob of the second run names another config hash');
});
