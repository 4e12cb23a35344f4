import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentest, fixture, MIXED } from './helpers.js';

/** A reporter agent that answers with a one-line report naming the format it was asked for. */
const CONFIG = `export default { agents: { 'report.beautiful': { run: async (messages) => {
  const { report, format } = JSON.parse(messages.at(-1).content);
  const text = '<p>' + format + ': ' + report.summary.total + ' cases</p>';
  return { content: text, text };
} } } };`;

test("--reporter <agent-id>, the seed's long form of -r, hands the report to that reporter agent", async () => {
  const dir = fixture({ 'agentest.config.mjs': CONFIG, 'inputs.jsonl': MIXED });
  const run = await agentest(
    ['test', '-i', 'inputs.jsonl', '-n', 'echo', '--reporter', 'report.beautiful', '-o', 'report.html'],
    { cwd: dir },
  );
  assert.equal(run.code, 1, run.stderr);
  assert.match(readFileSync(join(dir, 'report.html'), 'utf8'), /<p>html: 3 cases<\/p>/);
});

test('--reporter with a name that is neither a reporter nor an agent is still REPORTER_NOT_FOUND (exit 2)', async () => {
  const dir = fixture({ 'agentest.config.mjs': CONFIG, 'inputs.jsonl': MIXED });
  const run = await agentest(['test', '-i', 'inputs.jsonl', '-n', 'echo', '--reporter', 'report.nobody'], { cwd: dir });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /REPORTER_NOT_FOUND.*unknown reporter "report.nobody"/);
});

test('--reporter keeps taking built-in reporters, and -r with an agent leaves a second agent an error', async () => {
  const dir = fixture({ 'agentest.config.mjs': CONFIG, 'inputs.jsonl': MIXED });
  const both = await agentest(
    ['test', '-i', 'inputs.jsonl', '-n', 'echo', '-r', 'report.beautiful', '--reporter', 'report.beautiful'],
    { cwd: dir },
  );
  assert.equal(both.code, 2);
  assert.match(both.stderr, /REPORTER_NOT_FOUND/);
  const builtin = await agentest(['test', '-i', 'inputs.jsonl', '-n', 'echo', '--reporter', 'junit', '-o', 'r.json'], {
    cwd: dir,
  });
  assert.equal(builtin.code, 1, builtin.stderr);
});
