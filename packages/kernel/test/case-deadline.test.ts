/**
 * The case timeout covers the whole case: its Before hook, the executor, every assertion and its
 * After hook. Whatever hangs ends at the deadline as `timeout`, with the time it really took.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  createKernel,
  type AgentestPlugin,
  type CaseResult,
  type SuiteLifecycle,
  type TestCase,
} from '../src/index.js';
import { containsAssertion, echoAgent, inlineCases } from '@agentest/test-utils';
import { collector, inlinePlugins, plan, testCase } from './helpers.js';

const TIMEOUT_MS = 200;
/**
 * A timer may fire up to 2 ms before `performance.now()` says its time is up: libuv keeps its loop time in whole
 * milliseconds, read from a clock that may lag one tick (1 ms) behind on kernels where the coarse clock is that fine.
 */
const AT_TIMEOUT_MS = TIMEOUT_MS - 2;
/** A promise that never settles and holds no timer: only the kernel's deadline can end a wait on it. */
const never = () => new Promise<never>(() => {});

/** Assertion types that hang: one ignores its signal, one honours it, one answers quickly. */
const slowAssertions: AgentestPlugin = {
  name: 'test:slow-assertions',
  apply({ hooks }) {
    hooks.assert.for('hangs').tapPromise('test:slow-assertions', never);
    hooks.assert
      .for('hangs_until_aborted')
      .tapPromise(
        'test:slow-assertions',
        (_assertion, input) =>
          new Promise((_resolve, reject) => input.signal.addEventListener('abort', () => reject(input.signal.reason))),
      );
    hooks.assert.for('quick').tapPromise('test:slow-assertions', async () => ({ pass: true }));
  },
};

function withLifecycle(cases: TestCase[], lifecycle: SuiteLifecycle): AgentestPlugin {
  return {
    name: 'test:lifecycle',
    apply({ hooks }) {
      hooks.load.tapPromise({ name: 'test:lifecycle', stage: -1 }, async () => ({
        name: 'inline',
        needsAgent: true,
        cases: () => cases,
        lifecycle,
      }));
    },
  };
}

async function run(cases: TestCase[], extra: AgentestPlugin[] = [], runs = 1) {
  const c = collector();
  const outcome = await createKernel({ plugins: [...inlinePlugins(cases), slowAssertions, ...extra, c.plugin] }).run(
    plan({ runs }),
  );
  return { outcome, results: c.events.filter((e) => e.type === 'result') as unknown as CaseResult[] };
}

test('hanging assertions end at the case deadline as a timeout, with the real duration and the verdicts reached', async () => {
  const { outcome, results } = await run([
    testCase('two-hangs', { timeoutMs: TIMEOUT_MS, assert: [{ type: 'hangs' }, { type: 'hangs_until_aborted' }] }),
    testCase('after-a-pass', {
      timeoutMs: TIMEOUT_MS,
      assert: [{ type: 'quick' }, { type: 'contains', value: 'after' }, { type: 'hangs', negate: true }],
    }),
    testCase('next', { timeoutMs: TIMEOUT_MS, assert: [{ type: 'quick' }] }),
  ]);
  const [twoHangs, afterAPass, next] = results;
  assert.equal(twoHangs!.status, 'timeout');
  assert.equal(twoHangs!.error, 'timeout after 200ms in assertion 1 of 2 (hangs)');
  assert.ok(twoHangs!.duration_ms >= AT_TIMEOUT_MS, `the duration is the real time: ${twoHangs!.duration_ms} ms`);
  assert.deepEqual(twoHangs!.assertions, []);
  assert.equal(afterAPass!.status, 'timeout', 'a negated hang is a timeout, not a pass');
  assert.equal(afterAPass!.error, 'timeout after 200ms in assertion 3 of 3 (hangs)');
  assert.deepEqual(
    afterAPass!.assertions.map((a) => a.pass),
    [true, true],
  );
  assert.equal(afterAPass!.output, 'after-a-pass', 'the output is kept');
  assert.equal(next!.status, 'passed', 'the run goes on');
  assert.ok(next!.duration_ms >= 0);
  assert.equal(outcome.summary.timeouts, 2);
});

test('with --runs, every run has its own deadline', async () => {
  const { results } = await run([testCase('r', { timeoutMs: TIMEOUT_MS, assert: [{ type: 'hangs' }] })], [], 2);
  assert.deepEqual(
    results[0]!.runs.map((r) => r.status),
    ['timeout', 'timeout'],
  );
  for (const r of results[0]!.runs) assert.ok(r.duration_ms >= AT_TIMEOUT_MS, `${r.duration_ms} ms`);
});

test('a hanging Before hook ends at the deadline: the case is a timeout and its After is skipped', async () => {
  const afters: string[] = [];
  const cases = [testCase('stuck', { timeoutMs: TIMEOUT_MS }), testCase('fine', { timeoutMs: TIMEOUT_MS })];
  const { results } = await run(cases, [
    withLifecycle(cases, {
      before: async (c) => (c.id === 'stuck' ? never() : 'data'),
      after: async (c) => void afters.push(c.id),
    }),
  ]);
  assert.equal(results[0]!.status, 'timeout');
  assert.equal(results[0]!.error, 'timeout after 200ms in the before hook');
  assert.ok(results[0]!.duration_ms >= AT_TIMEOUT_MS, `${results[0]!.duration_ms} ms`);
  assert.equal(results[1]!.status, 'passed');
  assert.deepEqual(afters, ['fine']);
});

test("the Before hook shares the first run's deadline; the signal it gets fires there", async () => {
  let hookSignal: AbortSignal | undefined;
  const cases = [testCase('slow-before', { timeoutMs: TIMEOUT_MS, assert: [{ type: 'hangs_until_aborted' }] })];
  const { results } = await run(cases, [
    withLifecycle(cases, {
      before: async (_c, _agent, signal) => {
        hookSignal = signal;
        await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS / 2));
      },
    }),
  ]);
  assert.equal(results[0]!.status, 'timeout');
  assert.ok(
    results[0]!.duration_ms >= AT_TIMEOUT_MS,
    `the duration counts from the Before hook: ${results[0]!.duration_ms} ms`,
  );
  assert.equal(hookSignal?.aborted, true);
});

test('a hanging After hook ends at the deadline: the verdict stands and a warning says why', async () => {
  const cases = [
    testCase('a', { timeoutMs: TIMEOUT_MS }),
    testCase('b', { timeoutMs: TIMEOUT_MS, assert: [{ type: 'hangs' }] }),
  ];
  const signals: AbortSignal[] = [];
  const { results } = await run(cases, [
    withLifecycle(cases, {
      after: async (_c, _result, _data, _agent, signal) => {
        signals.push(signal!);
        return never();
      },
    }),
  ]);
  assert.equal(results[0]!.status, 'passed');
  assert.deepEqual(results[0]!.warnings, ['after hook failed: timeout after 200ms']);
  // After a timed-out run the After hook still runs, as cleanup, under a deadline of its own.
  assert.equal(results[1]!.status, 'timeout');
  assert.deepEqual(results[1]!.warnings, ['after hook failed: timeout after 200ms']);
  assert.equal(signals.length, 2);
  assert.ok(signals.every((s) => s.aborted));
});

test('a Before hook that runs out of a time limit of its own (a TimeoutError) makes its case a timeout', async () => {
  const cases = [testCase('own-limit')];
  const { results } = await run(cases, [
    withLifecycle(cases, {
      before: async () => {
        throw Object.assign(new Error('env_test.Before timed out: timeout after 50ms'), { name: 'TimeoutError' });
      },
    }),
  ]);
  assert.equal(results[0]!.status, 'timeout');
  assert.equal(results[0]!.error, 'before hook failed: env_test.Before timed out: timeout after 50ms');
});

test('a timeout past what one timer can hold (24.8 days) is kept without re-arming a timer every millisecond', async () => {
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(warning.name);
  process.on('warning', onWarning);
  const waits: AgentestPlugin = {
    name: 'test:waits',
    apply({ hooks }) {
      hooks.assert
        .for('waits')
        .tapPromise('test:waits', () => new Promise((resolve) => setTimeout(() => resolve({ pass: true }), 30)));
    },
  };
  try {
    const { results } = await run(
      [testCase('long', { timeoutMs: 600 * 3_600_000, assert: [{ type: 'waits' }] })],
      [waits],
    );
    assert.equal(results[0]!.status, 'passed');
    // Warnings are emitted on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(warnings, [], 'no TimeoutOverflowWarning: Node would fire such a timer after 1 ms');
  } finally {
    process.off('warning', onWarning);
  }
});

/** Holds the thread for `ms`, as a synchronous agent computing its reply does: no timer can fire meanwhile. */
function busyWait(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

const SHORT_MS = 5;
/** Far past `SHORT_MS`, so that the run is late by any clock. */
const BUSY_MS = 40;
const busyFor = (c: TestCase) => Number(c.metadata?.busy ?? 0);

/** Agent cases answered at once by a synchronous executor that first holds the thread for the case's `busy` ms. */
const syncBusyExecutor: AgentestPlugin = {
  name: 'test:sync-busy',
  apply({ hooks }) {
    hooks.execute.for('agent').tap('test:sync-busy', (c, ctx) => {
      busyWait(busyFor(c));
      return { run: ctx.run, status: 'passed', output: 'done', assertions: [], metrics: {}, duration_ms: 0 };
    });
    hooks.assert.for('busy').tap('test:sync-busy', (a) => (busyWait(Number(a.value)), { pass: true }));
  },
};

async function runSync(cases: TestCase[], extra: AgentestPlugin[] = []) {
  const c = collector();
  const plugins = [
    inlineCases(cases, { needsAgent: false }),
    syncBusyExecutor,
    containsAssertion(),
    ...extra,
    c.plugin,
  ];
  await createKernel({ plugins }).run(plan());
  return c.events.filter((e) => e.type === 'result') as unknown as CaseResult[];
}

test('a synchronous agent that answers after its deadline is a timeout, though the timer never had a turn', async () => {
  const [late, tiny, inTime] = await runSync([
    testCase('late', {
      timeoutMs: SHORT_MS,
      metadata: { busy: BUSY_MS },
      assert: [{ type: 'contains', value: 'done' }],
    }),
    // `timeout: 1ns`: no agent answers within it.
    testCase('tiny', { timeoutMs: 1e-6, metadata: { busy: 1 } }),
    testCase('in-time', { timeoutMs: 60_000, metadata: { busy: SHORT_MS } }),
  ]);
  assert.equal(late!.status, 'timeout');
  assert.equal(late!.error, `timeout after ${SHORT_MS}ms`);
  assert.ok(late!.duration_ms >= BUSY_MS, `the duration is the real time: ${late!.duration_ms} ms`);
  assert.deepEqual(late!.assertions, [], 'a timed-out reply is not judged');
  assert.equal(tiny!.status, 'timeout');
  assert.equal(inTime!.status, 'passed');
});

test('an async agent that holds the thread before it answers is a timeout when it answers after its deadline', async () => {
  const c = collector();
  const cases = [testCase('late', { timeoutMs: SHORT_MS }), testCase('in-time', { timeoutMs: 60_000 })];
  // It never awaits: its answer settles before the deadline's timer gets a turn.
  const plugins = inlinePlugins(cases, async (c) => (busyWait(c.id === 'late' ? BUSY_MS : 0), {}));
  await createKernel({ plugins: [...plugins, c.plugin] }).run(plan());
  const [late, inTime] = c.events.filter((e) => e.type === 'result') as unknown as CaseResult[];
  assert.equal(late!.status, 'timeout');
  assert.ok(late!.duration_ms >= BUSY_MS, `${late!.duration_ms} ms`);
  assert.equal(inTime!.status, 'passed');
});

test('synchronous assertions or a synchronous Before hook that end past the deadline make their case a timeout', async () => {
  const cases = [
    testCase('slow-assertion', {
      timeoutMs: SHORT_MS,
      assert: [
        { type: 'contains', value: 'done' },
        { type: 'busy', value: BUSY_MS },
      ],
    }),
    testCase('slow-before', { timeoutMs: SHORT_MS }),
  ];
  const afters: string[] = [];
  const [slowAssertion, slowBefore] = await runSync(cases, [
    echoAgent(),
    withLifecycle(cases, {
      before: (c) => void (c.id === 'slow-before' && busyWait(BUSY_MS)),
      after: (c) => void afters.push(c.id),
    }),
  ]);
  assert.equal(slowAssertion!.status, 'timeout');
  assert.equal(slowAssertion!.error, `timeout after ${SHORT_MS}ms in its assertions`);
  assert.deepEqual(
    slowAssertion!.assertions.map((a) => a.pass),
    [true, true],
    'the verdicts reached are kept',
  );
  assert.equal(slowBefore!.status, 'timeout');
  assert.equal(slowBefore!.error, `timeout after ${SHORT_MS}ms in the before hook`);
  assert.deepEqual(afters, ['slow-assertion'], 'a timed-out Before skips its After, as a hanging one does');
});
