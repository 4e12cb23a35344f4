import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture, PASSING } from './helpers.js';
import { agentestInProcess } from './in-process.js';

test('a reporter factory that throws is a configuration error naming reporters[i], not INTERNAL', async () => {
  const dir = fixture({
    'ok.jsonl': PASSING,
    'broken-reporter.mjs': `export default (options) => { throw new Error('no folder ' + options.folder); };`,
    'agentest.config.mjs': `export default { reporters: ['console', ['./broken-reporter.mjs', { folder: 'out' }]] };`,
  });
  const run = await agentestInProcess(['test', '-i', 'ok.jsonl', '-n', 'echo'], { cwd: dir });
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /error\[REPORTER_INVALID\]: .*reporters\[1\]: the reporter failed to start: no folder out/);
  assert.doesNotMatch(run.stderr, /INTERNAL|Report it/);
});

test('a reporter factory may return a plain Reporter object; it hears the run like a defined one', async () => {
  const dir = fixture({
    'ok.jsonl': PASSING,
    'plain-reporter.mjs': `import { writeFileSync } from 'node:fs';
      export default (options) => ({ name: 'plain', onSummary(s) { writeFileSync(options.cwd + '/seen.txt', String(s.total)); } });`,
  });
  const run = await agentestInProcess(['test', '-i', 'ok.jsonl', '-n', 'echo', '--reporter', './plain-reporter.mjs'], {
    cwd: dir,
  });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(readFileSync(join(dir, 'seen.txt'), 'utf8'), '2');
});

test('a reporter factory that returns no reporter is refused naming the flag, not "plugin #N"', async () => {
  const dir = fixture({ 'ok.jsonl': PASSING, 'empty-reporter.mjs': `export default async () => ({ name: 'late' });` });
  const run = await agentestInProcess(['test', '-i', 'ok.jsonl', '-n', 'echo', '--reporter', './empty-reporter.mjs'], {
    cwd: dir,
  });
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /error\[REPORTER_INVALID\]: --reporter.*the reporter factory returned a promise/);
  assert.doesNotMatch(run.stderr, /plugin #/);
});

test("a plugin whose apply throws is a configuration error naming plugins[i] and the plugin's message", async () => {
  const dir = fixture({
    'ok.jsonl': PASSING,
    'agentest.config.mjs': `export default { plugins: [
      { name: 'fine', apply() {} },
      { name: 'needs-key', apply() { throw new Error('option "key" is required'); } },
    ] };`,
  });
  const run = await agentestInProcess(['test', '-i', 'ok.jsonl', '-n', 'echo'], { cwd: dir });
  assert.equal(run.code, 2, run.stderr);
  assert.match(
    run.stderr,
    /error\[PLUGIN_INVALID\]: .*plugins\[1\] \(plugin "needs-key"\) failed to apply: option "key" is required/,
  );
  assert.doesNotMatch(run.stderr, /INTERNAL|Report it/);
});

test('a TypeScript config that fails to load gets a hint that runs a TypeScript file', async () => {
  const dir = fixture({ 'ok.jsonl': PASSING, 'agentest.config.ts': `throw new Error('boom');\nexport default {};\n` });
  const run = await agentestInProcess(['test', '-i', 'ok.jsonl', '-n', 'echo'], { cwd: dir });
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /error\[CONFIG_LOAD_FAILED\]: .*agentest\.config\.ts/);
  assert.match(run.stderr, /hint: .*npx tsx agentest\.config\.ts/);
  assert.doesNotMatch(run.stderr, /node agentest\.config\.mjs/);
});
