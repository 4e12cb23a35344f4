import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
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

/** An agent that answers only when its signal aborts, with the signal's reason. */
const stalling: Agent = {
  id: 'judge',
  run: (_messages, _ctx, signal) =>
    new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
};

test('a helper call that outlives its time limit is a timeout, and leaves no listener on the case’s signal', async () => {
  const run = new AbortController();
  const ref = parseHelperRef('agents:judge') as HelperRef;
  // The time limit never keeps the process alive by itself (as AbortSignal.timeout's), and this agent
  // holds nothing open as a real one's request does: a timer of the test's own stands for it.
  const alive = setTimeout(() => undefined, 60_000);
  try {
    await assert.rejects(
      callHelper({ ref, agent: stalling, messages: [], signal: run.signal, timeoutMs: 20, chatId: 'c' }),
      (error: Error & { kind?: string }) => /gave no answer within 20ms/.test(error.message),
    );
  } finally {
    clearTimeout(alive);
  }
  assert.equal(getEventListeners(run.signal, 'abort').length, 0);
});

test('a helper call ends with the case’s own abort, not as a timeout, and leaves no listener', async () => {
  const run = new AbortController();
  const ref = parseHelperRef('agents:judge') as HelperRef;
  const pending = callHelper({
    ref,
    agent: stalling,
    messages: [],
    signal: run.signal,
    timeoutMs: 60_000,
    chatId: 'c',
  });
  run.abort(new Error('interrupted'));
  await assert.rejects(pending, { message: 'interrupted' });
  assert.equal(getEventListeners(run.signal, 'abort').length, 0);
  const answered: Agent = { id: 'judge', run: async () => ({ content: 'ok', text: '' }) };
  const done = new AbortController();
  await callHelper({ ref, agent: answered, messages: [], signal: done.signal, timeoutMs: 60_000, chatId: 'c' });
  assert.equal(getEventListeners(done.signal, 'abort').length, 0, 'a finished call leaves none either');
});
