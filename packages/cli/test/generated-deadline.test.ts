import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agentest, fixture } from './helpers.js';

test('a generator that never answers (and ignores its signal) is GENERATOR_FAILED at --timeout, not a silent exit', async () => {
  const dir = fixture({
    'agentest.config.mjs': `export default { agents: { gen: { run: () => new Promise(() => {}) } } };`,
  });
  const run = await agentest(['test', '-i', 'agents:gen?count=2', '-n', 'echo', '--dry-run', '--timeout', '1s'], {
    cwd: dir,
  });
  assert.equal(run.code, 3, run.stdout + run.stderr);
  assert.match(
    run.stderr,
    /GENERATOR_FAILED.*-i "agents:gen\?count=2": generator "gen" failed: it gave no answer within 1s \(--timeout\)/,
  );
});
