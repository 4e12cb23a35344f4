import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createKernel, defineReporter, isAgentestError, type AgentestPlugin } from '../src/index.js';
import { inlinePlugins, plan, testCase } from './helpers.js';

// The embedding contract (docs/embedding.md): `kernel.run()` resolves with an outcome once cases were
// scheduled, rejects only with an AgentestError, and a kernel may run again with every reporter active.

test('a reporter that failed in one run of a reused kernel reports again in the next, whose outcome is clean', async () => {
  let run = 0;
  const heard: string[] = [];
  const flaky = defineReporter({
    name: 'flaky',
    onStart() {
      run++;
    },
    onResult(event) {
      if (run === 1) throw new Error('disk full');
      heard.push(`${run}:${event.id}`);
    },
  });
  const kernel = createKernel({ plugins: [...inlinePlugins([testCase('a', { input: 'x' })]), flaky] });

  const first = await kernel.run(plan());
  assert.equal(first.errors.length, 1);
  assert.match(first.errors[0]!.message, /reporter "flaky" failed in onResult: disk full/);

  const second = await kernel.run(plan());
  assert.deepEqual(heard, ['2:a'], 'the reporter hears the second run');
  assert.deepEqual(second.errors, [], 'the failure of the first run is not carried over');
  assert.equal(second.summary.passed, 1);
});

test('close() is called once per run, after the summary, and again for each run of a reused kernel', async () => {
  const calls: string[] = [];
  const reporter = defineReporter({
    name: 'files',
    onSummary: () => void calls.push('summary'),
    close: () => void calls.push('close'),
  });
  const kernel = createKernel({ plugins: [...inlinePlugins([testCase('a', { input: 'x' })]), reporter] });
  await kernel.run(plan());
  assert.deepEqual(calls, ['summary', 'close']);
  await kernel.run(plan());
  assert.deepEqual(calls, ['summary', 'close', 'summary', 'close']);
});

test('close() is called when a run rejects, too', async () => {
  let closed = 0;
  const reporter = defineReporter({ name: 'files', close: () => void closed++ });
  const noLoader = createKernel({ plugins: [reporter] });
  await assert.rejects(noLoader.run(plan()), (error: unknown) => isAgentestError(error) && error.code === 'NO_LOADER');
  assert.equal(closed, 1);
});

test('failed cases, a throwing executor, a failing reporter and an interruption all resolve with an outcome', async () => {
  const throwing: AgentestPlugin = {
    name: 'broken-executor',
    apply({ hooks }) {
      hooks.execute.for('agent').tap({ name: 'broken-executor', stage: -1 }, (c) => {
        if (c.id === 'boom') throw new Error('socket closed');
        return undefined;
      });
    },
  };
  const reporter = defineReporter({
    name: 'bad',
    onSummary() {
      throw new Error('no');
    },
  });
  const cases = [
    testCase('fails', { input: 'x', assert: [{ type: 'contains', value: 'absent' }] }),
    testCase('boom', { input: 'x' }),
  ];
  const outcome = await createKernel({ plugins: [throwing, ...inlinePlugins(cases), reporter] }).run(plan());
  assert.equal(outcome.summary.failed, 1);
  assert.equal(outcome.summary.errors, 1);
  assert.equal(outcome.errors.length, 1);

  const controller = new AbortController();
  controller.abort();
  const interrupted = await createKernel({ plugins: inlinePlugins(cases) }).run(plan(), {
    interrupt: controller.signal,
  });
  assert.equal(interrupted.summary.interrupted, true);
});

test('a run that cannot go on rejects with an AgentestError carrying its code and exit code, never a plain Error', async () => {
  // A suite whose case stream throws is plugin code the kernel calls outside any tap.
  const brokenStream: AgentestPlugin = {
    name: 'broken-stream',
    apply({ hooks }) {
      hooks.load.tap('broken-stream', () => ({
        name: 'broken',
        needsAgent: false,
        // eslint-disable-next-line require-yield
        async *cases() {
          throw new TypeError('cannot read line 3');
        },
      }));
    },
  };
  await assert.rejects(createKernel({ plugins: [brokenStream] }).run(plan()), (error: unknown) => {
    assert.ok(isAgentestError(error), `got ${String(error)}`);
    assert.equal(error.code, 'PLUGIN_ERROR');
    assert.equal(error.exitCode, 3);
    assert.match(error.message, /cannot read line 3/);
    return true;
  });

  const failingSetup: AgentestPlugin = {
    name: 'db',
    apply({ hooks }) {
      hooks.setup.tap('db', () => {
        throw new Error('connection refused');
      });
    },
  };
  await assert.rejects(
    createKernel({ plugins: [failingSetup, ...inlinePlugins([testCase('a')])] }).run(plan()),
    (error: unknown) => isAgentestError(error) && error.code === 'PLUGIN_ERROR' && /plugin "db"/.test(error.message),
  );
});
