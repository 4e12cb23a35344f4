import { test } from 'node:test';
import assert from 'node:assert/strict';
import agents from '../src/index.js';
import { run, testCase } from './helpers.js';

test('-n echo replies with the last user message and the assertions run on it', async () => {
  const cases = [
    testCase('plain', { assert: [{ type: 'contains', value: 'plain' }] }),
    testCase('history', {
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: [{ type: 'text', text: 'second' }, { type: 'image_url', image_url: { url: 'x' } }, { type: 'text', text: 'part' }] },
      ],
    }),
    testCase('wrong', { assert: [{ type: 'contains', value: 'nope' }] }),
  ];
  const { outcome, byId } = await run([agents()], cases, { agent: { id: 'echo' } });
  assert.equal(outcome.summary.agent_id, 'echo');
  assert.equal(byId('plain').status, 'passed');
  assert.equal(byId('plain').output, 'plain');
  assert.equal(byId('history').output, 'second\npart');
  assert.equal(byId('wrong').status, 'failed');
  assert.equal(byId('wrong').error, "output does not contain 'nope'");
});

test('an unknown agent id is left to other resolvers, and the kernel reports it as not found', async () => {
  await assert.rejects(run([agents()], [testCase('a')], { agent: { id: 'nobody' } }), (e: Error & { code?: string }) => {
    assert.equal(e.code, 'AGENT_NOT_FOUND');
    assert.match(e.message, /agent "nobody".*asked: .*agentest:agent/);
    return true;
  });
});

test('with no -n, a suite hint without an id is not claimed', async () => {
  await assert.rejects(run([agents()], [testCase('a')], {}, { path: 'cases.jsonl' }), { code: 'AGENT_NOT_FOUND' });
});
