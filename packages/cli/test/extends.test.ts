import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../src/config/load-config.js';
import { mergeConfigs } from '../src/config/merge-configs.js';
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
