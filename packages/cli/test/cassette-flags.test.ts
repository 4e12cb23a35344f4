import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseFlags } from '../src/flags.js';
import { agentest, fixture } from './helpers.js';

test('cassette and budget flags: one mode, a known mode, a positive budget', () => {
  assert.equal(parseFlags({ input: 'x', record: true }).cassetteMode, 'record');
  assert.equal(parseFlags({ input: 'x', cassettes: 'auto' }).cassetteMode, 'auto');
  assert.equal(parseFlags({ input: 'x', replay: true, cassettes: 'replay' }).cassetteMode, 'replay');
  assert.throws(
    () => parseFlags({ input: 'x', record: true, replay: true }),
    /ask for one cassette mode, got record and replay/,
  );
  assert.throws(
    () => parseFlags({ input: 'x', cassettes: 'lockdown' }),
    /--cassettes must be one of off, record, replay, auto/,
  );
  assert.equal(parseFlags({ input: 'x', maxCost: '2.50' }).maxCost, 2.5);
  assert.throws(() => parseFlags({ input: 'x', maxCost: '$2' }), /--max-cost must be a number above 0/);
  assert.throws(() => parseFlags({ input: 'x', maxTokens: '0' }), /--max-tokens must be a whole number of at least 1/);
});

test('--max-tokens: the run stops starting cases, reports the rest as not run, says so in one line and exits 1', async () => {
  const dir = fixture({
    'cases.jsonl': ['a', 'b', 'c'].map((id) => JSON.stringify({ id, input: `hello ${id}` })).join('\n') + '\n',
    'agentest.config.json': JSON.stringify({
      agents: { bot: { connector: 'm' } },
      connectors: { m: { type: 'mock' } },
    }),
  });
  const run = await agentest(['test', '-i', 'cases.jsonl', '-n', 'bot', '--max-tokens', '1', '-o', 'out.jsonl'], {
    cwd: dir,
  });
  assert.equal(run.code, 1);
  assert.match(run.stderr, /^Stopped early: budget \(--max-tokens 1 reached: \d+ tokens used\); 2 cases not run\.$/m);
});
