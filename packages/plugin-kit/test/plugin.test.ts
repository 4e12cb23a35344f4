import assert from 'node:assert/strict';
import { test } from 'node:test';
import { supportAdapter } from './fixtures/support-adapter.js';
import { runKit } from './helpers.js';

test('a directory mixes cases.json and test() files in one suite', async () => {
  const calls: Record<string, unknown>[] = [];
  const { outcome, results } = await runKit('mixed', supportAdapter(calls));
  const status = Object.fromEntries([...results].map(([id, r]) => [id, `${r.status}${r.runs[0]?.details?.grade ? `/${r.runs[0].details.grade}` : ''}${r.todo ? '/todo' : ''}`]));
  console.log(JSON.stringify(results.get('tests/conversation.test.ts#fails an expectation')));
  assert.deepEqual(status, {
    C001: 'passed/PASS',
    C002: 'passed/PARTIAL',
    C003: 'skipped',
    C004: 'skipped/todo',
    'tests/conversation.test.ts#multi-turn refund': 'passed/PASS',
    'tests/conversation.test.ts#fails an expectation': 'failed/FAIL',
    'tests/conversation.test.ts#empty message throw': 'error/FAIL',
    'tests/conversation.test.ts#data form': 'passed/PASS',
    'tests/conversation.test.ts#skipped': 'skipped',
    'tests/conversation.test.ts#later': 'skipped/todo',
  });
  console.log(JSON.stringify(outcome.summary));
  console.log(JSON.stringify(results.get("tests/conversation.test.ts#multi-turn refund"), null, 1));
});
