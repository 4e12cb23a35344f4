import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bindRunScope, runScopeOf } from '@agentest/kernel/run-scope';
import { type Agent, type RunScope } from '@agentest/kernel';
import { callHelper, parseHelperRef, type HelperRef } from '../src/index.js';

test('a helper call carries the case run’s scope in the helper’s role, for cassettes and the usage meter', async () => {
  const run = new AbortController().signal;
  const scope = { caseId: 'T1', run: 2, role: 'agent', turn: 0 } as unknown as RunScope;
  bindRunScope(run, scope);
  const seen: (RunScope | undefined)[] = [];
  const agent: Agent = {
    id: 'judge',
    run: async (_messages, _ctx, signal) => {
      seen.push(runScopeOf(signal));
      return { content: '{"passed": true}', text: '' };
    },
  };
  const ref = parseHelperRef('agents:judge') as HelperRef;
  const call = { ref, agent, messages: [], signal: run, timeoutMs: 60_000, chatId: 'c' };
  await callHelper(call);
  await callHelper({ ...call, role: 'simulator' });
  assert.deepEqual(
    seen.map((s) => [s?.caseId, s?.run, s?.role]),
    [
      ['T1', 2, 'judge'],
      ['T1', 2, 'simulator'],
    ],
  );
  assert.equal(scope.role, 'agent', 'the run’s own scope keeps its role');
});
