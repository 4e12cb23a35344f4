/**
 * Reporter failures: a reporter loaded from the config by path that throws, hangs or fails to close
 * must not cost the other reporters their outputs, must not change a verdict, and must make the run
 * end with exit code 3 and a message naming the reporter and what it was doing.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runCli, stackFrames } from './helpers/cli.js';
import { readEvents, resultsById } from './helpers/events.js';
import { workspace, writeCases, writeJson } from './helpers/workspace.js';

const IDS = ['a', 'b', 'c', 'd'];

const REPORTERS: Record<string, string> = {
  'throws-on-result.mjs': `export default { name: 'thrower', onResult(event) { if (event.id === 'b') throw new Error('disk full while writing ' + event.id); } };\n`,
  'throws-on-start.mjs': `export default { name: 'early', onStart() { throw new TypeError('cannot read properties of undefined'); } };\n`,
  'hangs-on-summary.mjs': `export default { name: 'hanger', timeoutMs: 300, onSummary() { return new Promise(() => {}); } };\n`,
  'hangs-on-result.mjs': `export default { name: 'staller', timeoutMs: 300, onResult() { return new Promise(() => {}); } };\n`,
  'throws-in-close.mjs': `export default { name: 'closer', close() { throw new Error('flush failed'); } };\n`,
  'throws-non-error.mjs': `export default { name: 'weird', onResult() { throw undefined; } };\n`,
};

function project(name: string, reporter: string): string {
  const dir = workspace(name);
  writeFileSync(join(dir, reporter), REPORTERS[reporter]!);
  writeJson(dir, 'agentest.config.json', {
    reporters: [`./${reporter}`, ['markdown', { output: 'report.md' }], ['junit', { output: 'report.xml' }]],
  });
  writeCases(
    dir,
    'cases.jsonl',
    IDS.map((id) => ({ id, input: `hello ${id}`, assert: { type: 'contains', value: id === 'd' ? 'absent' : id } })),
  );
  return dir;
}

/** The outputs of the healthy reporters are whole and hold every case. */
function checkOtherOutputs(dir: string): void {
  const events = readEvents(join(dir, 'events.jsonl'));
  const byId = resultsById(events, IDS);
  assert.equal(byId.get('d')!.status, 'failed', 'verdicts are unchanged');
  assert.equal(events.at(-1)!.type, 'summary');
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { results: { id: string }[] };
  assert.deepEqual(report.results.map((r) => r.id).sort(), IDS);
  const markdown = readFileSync(join(dir, 'report.md'), 'utf8');
  for (const id of IDS) assert.match(markdown, new RegExp(`\\b${id}\\b`));
  const junit = readFileSync(join(dir, 'report.xml'), 'utf8');
  assert.equal((junit.match(/<testcase\b/g) ?? []).length, IDS.length);
}

const CASES: [string, string, RegExp][] = [
  ['throws in onResult', 'throws-on-result.mjs', /reporter "thrower" failed in onResult: disk full while writing b/],
  [
    'throws in onStart',
    'throws-on-start.mjs',
    /reporter "early" failed in onStart: cannot read properties of undefined/,
  ],
  ['hangs in onSummary', 'hangs-on-summary.mjs', /reporter "hanger" failed in onSummary: no answer within 300 ms/],
  ['hangs in onResult', 'hangs-on-result.mjs', /reporter "staller" failed in onResult: no answer within 300 ms/],
  ['throws in close', 'throws-in-close.mjs', /reporter "closer" failed in close: flush failed/],
  ['throws undefined', 'throws-non-error.mjs', /reporter "weird" failed in onResult: \S/],
];

describe('a failing reporter loaded by path', { concurrency: 3 }, () => {
  for (const [what, file, message] of CASES) {
    test(`${what}: the other outputs are whole, verdicts unchanged, exit code 3`, async () => {
      const dir = project(what.replace(/\W+/g, '-'), file);
      const run = await runCli(['test', '-i', 'cases.jsonl', '-n', 'echo', '-o', 'report.json', '-o', 'events.jsonl'], {
        cwd: dir,
      });
      assert.equal(run.code, 3, `exit ${run.code}\n${run.stderr}`);
      assert.match(run.stderr, /error\[REPORTER_FAILED\]/);
      assert.match(run.stderr, message);
      assert.deepEqual(stackFrames(run.stderr), []);
      checkOtherOutputs(dir);
    });
  }

  test('a plugin whose teardown throws does not cost the reporters their outputs; exit code 3', async () => {
    const dir = project('plugin-teardown', 'throws-non-error.mjs');
    writeFileSync(
      join(dir, 'agentest.config.mjs'),
      `export default {
  plugins: [{ name: 'leaky-pool', apply({ hooks }) { hooks.teardown.tapPromise('leaky-pool', async () => { throw new Error('pool close failed'); }); } }],
  reporters: [['markdown', { output: 'report.md' }], ['junit', { output: 'report.xml' }]],
};\n`,
    );
    rmSync(join(dir, 'agentest.config.json'));
    const run = await runCli(['test', '-i', 'cases.jsonl', '-n', 'echo', '-o', 'report.json', '-o', 'events.jsonl'], {
      cwd: dir,
    });
    assert.equal(run.code, 3, `exit ${run.code}\n${run.stderr}`);
    assert.match(run.stderr, /error\[PLUGIN_ERROR\]: plugin "leaky-pool" failed in hook "teardown": pool close failed/);
    checkOtherOutputs(dir);
  });
});
