import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentest, fixture, jsonl, MIXED, PASSING, readJsonl } from './helpers.js';

/** A local plugin that adds an assertion type, to prove the config's plugins are applied. */
const SHOUT_PLUGIN = `
export function shout(): { name: string; apply(k: any): void } {
  return {
    name: 'local:shout',
    apply({ hooks }) {
      hooks.assert.for('shout').tap('local:shout', (_a: unknown, input: { output: unknown }) => {
        const text: string = String(input.output);
        return { pass: text === text.toUpperCase(), message: 'output is not upper case' };
      });
    },
  };
}
`;
const SHOUTING = jsonl([
  { id: 'S1', input: 'HELLO', assert: { type: 'shout' } },
  { id: 'S2', input: 'quiet', assert: { type: 'shout' } },
]);

test('a .ts config importing a local .ts plugin', async () => {
  const dir = fixture({
    'plugins/shout.ts': SHOUT_PLUGIN,
    'agentest.config.ts': `import { shout } from './plugins/shout.js';\nconst runs: number = 2;\nexport default { plugins: [shout(), false, [null]], test: { runs } };\n`,
    'cases.jsonl': SHOUTING,
  });
  const run = await agentest(['test', '-i', 'cases.jsonl', '-n', 'echo', '-o', 'out.jsonl'], { cwd: dir });
  assert.equal(run.code, 1, run.stderr);
  const events = readJsonl(readFileSync(join(dir, 'out.jsonl'), 'utf8'));
  const results = events.filter((e) => e.type === 'result');
  assert.deepEqual(
    results.map((r) => [r.id, r.status]),
    [
      ['S1', 'passed'],
      ['S2', 'failed'],
    ],
  );
  assert.equal(events[0]!.runs_per_case, 2, 'test.runs from the config');
});

test('.json, .yaml and package.json configs are found; flags override them', async () => {
  const formats: Record<string, Record<string, string>> = {
    json: { 'agentest.config.json': '{"test": {"runs": 2, "user": "config-user"}}' },
    yaml: { '.agentestrc.yaml': 'test:\n  runs: 2\n  user: config-user\n' },
    pkg: { 'package.json': '{"name": "x", "agentest": {"test": {"runs": 2, "user": "config-user"}}}' },
  };
  for (const [name, files] of Object.entries(formats)) {
    const dir = fixture({ 'ok.jsonl': PASSING });
    const { writeFileSync } = await import('node:fs');
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
    const fromConfig = await agentest(['test', '-i', 'ok.jsonl', '-n', 'echo', '-o', 'a.jsonl'], { cwd: dir });
    assert.equal(fromConfig.code, 0, `${name}: ${fromConfig.stderr}`);
    const start = readJsonl(readFileSync(join(dir, 'a.jsonl'), 'utf8'))[0]!;
    assert.equal(start.runs_per_case, 2, `${name}: runs from config`);
    assert.equal((start.environment as { user_id: string }).user_id, 'config-user', `${name}: user from config`);
    const flags = await agentest(
      ['test', '-i', 'ok.jsonl', '-n', 'echo', '-o', 'b.jsonl', '--runs', '1', '-u', 'flag-user'],
      { cwd: dir },
    );
    assert.equal(flags.code, 0, flags.stderr);
    const start2 = readJsonl(readFileSync(join(dir, 'b.jsonl'), 'utf8'))[0]!;
    assert.equal(start2.runs_per_case, 1, `${name}: --runs wins`);
    assert.equal((start2.environment as { user_id: string }).user_id, 'flag-user', `${name}: -u wins`);
  }
});

test('--config names the file; thresholds from config and --threshold give a verdict', async () => {
  // Two of three cases pass: the config's 50% ships, a --threshold of 90% does not.
  const dir = fixture({ 'mixed.jsonl': MIXED, 'ci.config.json': '{"thresholds": {"pass_rate": 0.5}}' });
  const ship = await agentest(['test', '-i', 'mixed.jsonl', '-n', 'echo', '--config', 'ci.config.json', '--no-jsonl'], {
    cwd: dir,
  });
  assert.equal(ship.code, 0, ship.stderr);
  assert.match(ship.stdout, /VERDICT: SHIP IT/);
  const noShip = await agentest(
    [
      'test',
      '-i',
      'mixed.jsonl',
      '-n',
      'echo',
      '--config',
      'ci.config.json',
      '--threshold',
      'pass_rate=90%',
      '--no-jsonl',
    ],
    { cwd: dir },
  );
  assert.equal(noShip.code, 1);
  assert.match(noShip.stdout, /VERDICT: DO NOT SHIP/);
});

test('config errors exit 2 with a precise message and no stack trace', async () => {
  const cases: [Record<string, string>, RegExp][] = [
    [
      { 'agentest.config.json': '{"reporter": ["json"]}' },
      /error\[CONFIG_INVALID\]: .*agentest\.config\.json: reporter: unknown key \(did you mean "reporters"\?\)/,
    ],
    [{ 'agentest.config.json': '{"test": {"runs": 0}}' }, /error\[CONFIG_INVALID\]: .*test\.runs/],
    [
      { 'agentest.config.json': '{"test": {"timout": "2m"}}' },
      /test\.timout: unknown key \(did you mean "timeout"\?\)/,
    ],
    [{ 'agentest.config.json': '{"test": {"timeout": "soon"}}' }, /test\.timeout: invalid duration "soon"/],
    // A coverage minimum is a percentage: 0.8 (a slip for 80) would be met by almost any run.
    [
      { 'agentest.config.json': '{"coverage": {"lines": 0.8}}' },
      /error\[CONFIG_INVALID\]: .*coverage\.lines: .*a percentage.*got 0\.8: write 80 for 80%/,
    ],
    [{ 'agentest.config.json': '{"test": {' }, /error\[CONFIG_LOAD_FAILED\]: .*agentest\.config\.json/],
    [
      { 'agentest.config.ts': 'export default { test: { runs: 2 } ' },
      /error\[CONFIG_LOAD_FAILED\]: .*agentest\.config\.ts:1:\d+: Expected "}"/,
    ],
    [
      {
        'agentest.config.mjs':
          'const plugin = () => ({ name: "p", apply() {} });\nexport default { plugins: [plugin] };',
      },
      /error\[PLUGIN_INVALID\]: .*plugins\[0\]: expected a plugin object .* call the plugin factory/,
    ],
    [
      { 'agentest.config.json': '{"reporters": ["htlm"]}' },
      /error\[REPORTER_NOT_FOUND\]: .*reporters\[0\]: unknown reporter "htlm" \(did you mean "html"\?\); built-in reporters: console, jsonl, json/,
    ],
    [
      { 'agentest.config.json': '{"reporters": ["./nope.mjs"]}' },
      /error\[REPORTER_NOT_FOUND\]: .*reporter module "\.\/nope\.mjs" not found/,
    ],
  ];
  const runs = await Promise.all(
    cases.map(([files]) =>
      agentest(['test', '-i', 'ok.jsonl', '-n', 'echo'], { cwd: fixture({ 'ok.jsonl': PASSING, ...files }) }),
    ),
  );
  runs.forEach((run, i) => {
    assert.equal(run.code, 2, `case ${i}: ${run.stderr}`);
    assert.match(run.stderr, cases[i]![1]);
    assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
    assert.equal(run.stdout, '', 'nothing ran');
  });
});

test("a JSON config's syntax error names file:line:column and the reason, without quoting the file", async () => {
  // A key written in the config would otherwise reach CI logs with the parser's quote of the text around the error.
  const cases: [string, RegExp][] = [
    ['{"test": {', /agentest\.config\.json:1:11: Expected property name or '\}' in JSON\n/],
    ['{"key": "sk-written-in-the-file", "a": tru}', /agentest\.config\.json: Unexpected token '\}': not valid JSON\n/],
    [
      '{\n  "connectors": {"x": {"type": "openai", "key": "sk-written-in-the-file" "model": "m"}}\n}',
      /agentest\.config\.json:2:\d+: Expected ',' or '\}' after property value in JSON\n/,
    ],
  ];
  for (const [config, message] of cases) {
    const dir = fixture({ 'ok.jsonl': PASSING, 'agentest.config.json': config });
    const run = await agentest(['test', '-i', 'ok.jsonl', '-n', 'echo'], { cwd: dir });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /^error\[CONFIG_LOAD_FAILED\]: /);
    assert.match(run.stderr, message);
    assert.doesNotMatch(run.stderr, /sk-written/);
  }
});

/** A reporter module that writes how many results it heard to its `output`. */
const COUNT_REPORTER = `import { writeFileSync } from 'node:fs';\nexport default (options) => ({ name: 'count', apply({ hooks }) { let n = 0; hooks.report.tap('count', (e) => { if (e.type === 'result') n++; if (e.type === 'summary') writeFileSync(options.output, String(n)); }); } });`;

test('reporters from config: a path relative to the config, [name, options], and a Reporter object', async () => {
  const dir = fixture({
    'ok.jsonl': PASSING,
    'reporters/count.mjs': COUNT_REPORTER,
    'agentest.config.mjs': `export default { reporters: [['./reporters/count.mjs', { output: 'count.txt' }], ['json', { output: 'report.json' }], { name: 'inline', onSummary(s) { console.log('inline saw', s.total); } }] };`,
  });
  const run = await agentest(['test', '-i', 'ok.jsonl', '-n', 'echo', '--no-jsonl'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(readFileSync(join(dir, 'count.txt'), 'utf8'), '2');
  assert.equal(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).summary.total, 2);
  assert.match(run.stdout, /inline saw 2/);
});

test("reporters by package name resolve from the config file's folder; a missing or broken package is a clear error", async () => {
  const dir = fixture({
    'suite/package.json': '{"name": "suite", "private": true, "type": "module"}',
    'suite/node_modules/agentest-reporter-count/package.json':
      '{"name": "agentest-reporter-count", "type": "module", "exports": {".": {"default": "./index.js"}}}',
    'suite/node_modules/agentest-reporter-count/index.js': COUNT_REPORTER,
    'suite/node_modules/broken-reporter/package.json':
      '{"name": "broken-reporter", "exports": {"./other": "./other.js"}}',
    'suite/agentest.config.mjs':
      "export default { reporters: [['agentest-reporter-count', { output: 'count.txt' }]] };",
    'suite/ok.jsonl': PASSING,
  });
  // Run from the parent folder, which has no node_modules: the package is found from the config's folder.
  const run = await agentest(['test', '-i', 'suite/ok.jsonl', '-n', 'echo', '--no-jsonl'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(readFileSync(join(dir, 'suite', 'count.txt'), 'utf8'), '2');

  const missing = await agentest(
    ['test', '-i', 'suite/ok.jsonl', '-n', 'echo', '--no-jsonl', '--reporter', 'agentest-reporter-count'],
    { cwd: dir },
  );
  assert.equal(missing.code, 2);
  assert.match(
    missing.stderr,
    /error\[REPORTER_NOT_FOUND\]: --reporter: reporters\[0\]: unknown reporter "agentest-reporter-count"; built-in reporters: .*the name of a package installed where the config is/,
  );

  const broken = await agentest(
    ['test', '-i', 'ok.jsonl', '-n', 'echo', '--no-jsonl', '--reporter', 'broken-reporter'],
    { cwd: join(dir, 'suite') },
  );
  assert.equal(broken.code, 2);
  assert.match(
    broken.stderr,
    /error\[REPORTER_NOT_FOUND\]: --reporter: reporters\[0\]: reporter package "broken-reporter" cannot be loaded: No "exports" main defined/,
  );
  assert.doesNotMatch(broken.stderr, /\n\s+at /, 'no stack trace');
});

test("the config is searched from the input's folder first, so a suite in its own folder brings its config", async () => {
  const dir = fixture({
    'package.json': '{"name": "outer"}',
    'suite/agentest.config.json':
      '{"test": {"runs": 2}, "agents": {"only": {"connector": "m"}}, "connectors": {"m": {"type": "mock", "options": {"default": "HELLO"}}}}',
    'suite/cases.jsonl': jsonl([{ id: 'C1', input: 'hi', assert: { type: 'contains', value: 'HELLO' } }]),
  });
  const run = await agentest(['test', '-i', 'suite/cases.jsonl', '-o', 'out.jsonl'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  const events = readJsonl(readFileSync(join(dir, 'out.jsonl'), 'utf8'));
  assert.equal(events[0]!.runs_per_case, 2, `test.runs from suite/agentest.config.json (stderr: ${run.stderr})`);
  assert.equal(events[0]!.agent_id, 'only', "the config's single agent is the default");
});
