import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AsyncSeriesBailHook, AsyncSeriesHook } from 'tapable';
import { callBail, callSeries } from '../src/call-taps.js';
import { RunWatch } from '../src/run-watch.js';
import { createKernel, defineReporter, type AgentestPlugin, type RunEvent } from '../src/index.js';
import { countAbortControllers, inlineCases } from '@agentest/test-utils';
import { collector, inlinePlugins, plan, testCase } from './helpers.js';

const reason = (ms: number) => `timeout after ${ms}ms`;
/**
 * A timer may fire up to 2 ms before `performance.now()` says its time is up: libuv keeps its loop time in whole
 * milliseconds, read from a clock that may lag one tick (1 ms) behind on kernels where the coarse clock is that fine.
 */
const TIMER_EARLY_MS = 2;

test('RunWatch: one timer ends each run at its own timeout, in any order of timeouts', async () => {
  const watch = new RunWatch(new AbortController().signal, reason);
  const never = new Promise<never>(() => {});
  // Taken before the runs begin: each deadline counts from its begin(), so this clock can only run longer.
  const started = performance.now();
  const slow = watch.begin(60);
  const fast = watch.begin(20);
  const ended = new Map<string, number>();
  await Promise.all([
    slow.race(never).catch((e: Error) => ended.set(`slow: ${e.message}`, performance.now() - started)),
    fast.race(never).catch((e: Error) => ended.set(`fast: ${e.message}`, performance.now() - started)),
  ]);
  // On a busy machine one late timer may end both runs at once, so the order they end in is not asserted.
  assert.deepEqual([...ended.keys()].sort(), ['fast: timeout after 20ms', 'slow: timeout after 60ms']);
  assert.ok(ended.get('fast: timeout after 20ms')! >= 20 - TIMER_EARLY_MS, 'the fast run is not ended early');
  assert.ok(ended.get('slow: timeout after 60ms')! >= 60 - TIMER_EARLY_MS, 'the slow run is not ended early');
  assert.equal(slow.timedOut && fast.timedOut && slow.signal.aborted && fast.signal.aborted, true);
  watch.dispose();
});

test('RunWatch: a run that answers in time is not aborted, and the hard stop aborts the running ones', async () => {
  const hardStop = new AbortController();
  const watch = new RunWatch(hardStop.signal, reason);
  const quick = watch.begin(20);
  assert.equal(await quick.race(Promise.resolve('done')), 'done');
  watch.stop(quick);
  const running = watch.begin(60_000);
  const pending = running.race(new Promise(() => {}));
  hardStop.abort();
  await assert.rejects(pending, /run interrupted/);
  assert.equal(running.timedOut, false);
  await new Promise((r) => setTimeout(r, 40));
  assert.equal(quick.signal.aborted, false, 'a stopped run is never aborted later');
  watch.dispose();
});

test('RunWatch: each run has its own signal, so one a plugin keeps never fires for a later run', async () => {
  const watch = new RunWatch(new AbortController().signal, reason);
  const first = watch.begin(1000);
  const kept = first.signal;
  watch.stop(first);
  const second = watch.begin(10);
  assert.notEqual(second.signal, kept);
  await assert.rejects(second.race(new Promise(() => {})), /timeout after 10ms/);
  assert.equal(second.signal.aborted, true);
  assert.equal(kept.aborted, false, 'the first run ended in time: its signal stays quiet');
  watch.dispose();
});

test('RunWatch: a run stopped before anyone asked for its signal hands out one already aborted', async () => {
  const hardStop = new AbortController();
  const watch = new RunWatch(hardStop.signal, reason);
  const run = watch.begin(60_000);
  hardStop.abort();
  assert.equal(run.aborted, true);
  assert.equal(run.signal.aborted, true);
  assert.match(String(run.signal.reason), /run interrupted/);
  watch.dispose();
});

test('callBail answers synchronously for sync taps and bails on the first defined answer', async () => {
  const hook = new AsyncSeriesBailHook<[number, number], number | undefined>(['a', 'b']);
  hook.tap('skip', () => undefined);
  hook.tap('sum', (a, b) => a + b);
  hook.tap('never', () => -1);
  assert.equal(callBail(hook, 2, 3), 5);
  const later = new AsyncSeriesBailHook<[number, number], number | undefined>(['a', 'b']);
  later.tapPromise('skip', async () => undefined);
  later.tapAsync('callback', (a, b, done) => done(null, a * b));
  const answer = callBail(later, 2, 3);
  assert.ok(answer instanceof Promise);
  assert.equal(await answer, 6);
});

test('callSeries calls every tap in order and waits only for the ones that answer with a promise', async () => {
  const seen: string[] = [];
  const hook = new AsyncSeriesHook<[string]>(['event'], 'report');
  hook.tap('a', (e) => void seen.push(`a:${e}`));
  assert.equal(callSeries(hook, 'x'), undefined);
  hook.tapPromise('b', async (e) => void seen.push(`b:${e}`));
  hook.tap('c', (e) => void seen.push(`c:${e}`));
  await callSeries(hook, 'y');
  assert.deepEqual(seen, ['a:x', 'a:y', 'b:y', 'c:y']);
});

test('a reporter with synchronous handlers hears every event in order; an async one that hangs is cut off', async () => {
  const sync: string[] = [];
  const syncReporter = defineReporter({
    name: 'sync',
    onCaseStart: (e) => void sync.push(`start ${e.id}`),
    onResult: (e) => void sync.push(`result ${e.id}`),
  });
  const hung = defineReporter({ name: 'hung', timeoutMs: 30, onResult: () => new Promise(() => {}) });
  const outcome = await createKernel({
    plugins: [...inlinePlugins([testCase('a'), testCase('b')]), syncReporter, hung],
  }).run(plan());
  assert.deepEqual(sync, ['start a', 'result a', 'start b', 'result b']);
  assert.equal(outcome.errors.length, 1);
  assert.match(outcome.errors[0]!.message, /reporter "hung" failed in onResult: no answer within 30 ms/);
});

test('a passed assertion keeps type and message but not expected/actual; a failed one keeps them', async () => {
  const c = collector();
  const withDetail: AgentestPlugin = {
    name: 'test:detail',
    apply: ({ hooks }) =>
      hooks.assert.for('same').tap('test:detail', (a, input) => ({
        pass: input.output === a.value,
        message: 'compared',
        expected: a.value,
        actual: input.output,
      })),
  };
  const cases = [
    testCase('a', { assert: [{ type: 'same', value: 'a' }] }),
    testCase('b', { assert: [{ type: 'same', value: 'x' }] }),
  ];
  await createKernel({ plugins: [...inlinePlugins(cases), withDetail, c.plugin] }).run(plan());
  const [passed, failed] = c.events.filter((e) => e.type === 'result') as unknown as {
    assertions: Record<string, unknown>[];
  }[];
  assert.deepEqual(passed!.assertions, [{ pass: true, message: 'compared', type: 'same' }]);
  assert.deepEqual(failed!.assertions, [
    { pass: false, message: 'compared', expected: 'x', actual: 'b', type: 'same' },
  ]);
});

test('the report hook still accepts plain taps of every kind, in registration order', async () => {
  const seen: string[] = [];
  const plugin: AgentestPlugin = {
    name: 'test:taps',
    apply({ hooks }) {
      hooks.report.tap('sync', (e: RunEvent) => void seen.push(`sync ${e.type}`));
      hooks.report.tapPromise('promise', async (e: RunEvent) => void seen.push(`promise ${e.type}`));
      hooks.report.tapAsync('callback', (e: RunEvent, done) => (seen.push(`callback ${e.type}`), done()));
    },
  };
  await createKernel({ plugins: [...inlinePlugins([testCase('a')]), plugin] }).run(plan());
  assert.deepEqual(seen.slice(0, 3), ['sync start', 'promise start', 'callback start']);
  assert.equal(seen.length, 15);
});

test('Before and After may answer synchronously: the data reaches After, and a synchronous throw makes its case an error', async () => {
  const afters: [string, unknown][] = [];
  const cases = [testCase('a'), testCase('b')];
  const hooked: AgentestPlugin = {
    name: 'test:sync-hooks',
    apply({ hooks }) {
      hooks.suite.tap('test:sync-hooks', (suite) => ({
        ...suite,
        lifecycle: {
          before: (c: { id: string }) => {
            if (c.id === 'a') throw new Error('no fixture');
            return `data for ${c.id}`;
          },
          after: (c: { id: string }, _result: unknown, data: unknown) => void afters.push([c.id, data]),
        },
      }));
    },
  };
  const c = collector();
  const outcome = await createKernel({ plugins: [...inlinePlugins(cases), hooked, c.plugin] }).run(plan());
  assert.equal(c.events.find((e) => e.type === 'result' && e.id === 'a')!.error, 'before hook failed: no fixture');
  assert.deepEqual(afters, [['b', 'data for b']]);
  assert.equal(outcome.summary.passed, 1);
});

test('a run whose executor and assertions never read ctx.signal makes no AbortSignal, even past an asynchronous assertion', async () => {
  const interrupt = new AbortController().signal;
  const abort = new AbortController().signal;
  const quiet: AgentestPlugin = {
    name: 'test:quiet',
    apply({ hooks }) {
      hooks.execute.for('agent').tap('test:quiet', (c, ctx) => ({
        run: ctx.run,
        status: 'passed',
        duration_ms: 1,
        assertions: [],
        metrics: {},
        output: c.input,
      }));
      // An asynchronous assertion first: the kernel then checks whether the run was stopped before the next one.
      hooks.assert.for('later').tapPromise('test:quiet', async () => ({ pass: true }));
      hooks.assert.for('same').tap('test:quiet', (a, input) => ({ pass: input.output === a.value }));
    },
  };
  const cases = ['A', 'B', 'C'].map((id) =>
    testCase(id, { assert: [{ type: 'later' }, { type: 'same', value: id }, { type: 'same', value: id }] }),
  );
  const { plugin, events } = collector();
  const kernel = createKernel({ plugins: [inlineCases(cases, { needsAgent: false }), quiet, plugin] });
  const made = await countAbortControllers(() => kernel.run(plan(), { interrupt, abort }));
  const results = events.filter((e) => e.type === 'result');
  assert.deepEqual(
    results.map((r) => r.status),
    ['passed', 'passed', 'passed'],
  );
  assert.equal(made, 0);
});

test('a lifecycle whose hasCaseHooks answers false for a case runs neither hook for it and makes it no signal', async () => {
  const interrupt = new AbortController().signal;
  const abort = new AbortController().signal;
  const called: string[] = [];
  const hooked: AgentestPlugin = {
    name: 'test:some-hooks',
    apply({ hooks }) {
      hooks.execute.for('agent').tap('test:some-hooks', (c, ctx) => ({
        run: ctx.run,
        status: 'passed',
        duration_ms: 1,
        assertions: [],
        metrics: {},
        output: c.input,
      }));
      hooks.suite.tap('test:some-hooks', (suite) => ({
        ...suite,
        lifecycle: {
          hasCaseHooks: (c: { id: string }) => c.id === 'hooked',
          before: (c: { id: string }, _agent: unknown, signal?: AbortSignal) => {
            called.push(`before ${c.id} ${signal instanceof AbortSignal}`);
            return 'data';
          },
          after: (c: { id: string }, _result: unknown, data: unknown) => void called.push(`after ${c.id} ${data}`),
        },
      }));
    },
  };
  const cases = ['plain', 'hooked', 'other'].map((id) => testCase(id));
  const { plugin, events } = collector();
  const kernel = createKernel({ plugins: [inlineCases(cases, { needsAgent: false }), hooked, plugin] });
  const made = await countAbortControllers(() => kernel.run(plan(), { interrupt, abort }));
  assert.deepEqual(called, ['before hooked true', 'after hooked data']);
  assert.deepEqual(
    events.filter((e) => e.type === 'result').map((r) => r.status),
    ['passed', 'passed', 'passed'],
  );
  assert.equal(made, 1, 'only the hooked case, whose Before got the run signal, made one');
});
