/**
 * What `import { test, expect } from '@agentest/test'` is inside the sandbox. The sandbox evaluates a test
 * file afresh for every call, so this module (and its registry) exists once per call: a file sees
 * only its own registrations. Two entry points are left on `globalThis` for the main thread:
 * `__agentest_kit_list()` reports the file's tests, `__agentest_kit_run(name, agent)` runs one, with
 * `ctx.run` reaching the agent on the main thread through the host functions.
 */
import {
  expect,
  isAssertionError,
  setJudgeRunner,
  setSnapshotRunner,
  type SatisfyRequest,
  type SatisfyVerdict,
  type SnapshotOutcome,
  type SnapshotRequest,
} from '@agentest/expect';
import { createRegistry } from '../define-test.js';
import { simulateThrough, type SimulationHost } from '../simulate-loop.js';
import type { RunInput, RunResult, TestFnContext } from '../types.js';

interface Host extends SimulationHost {
  run(input: RunInput): Promise<RunResult>;
  judge(request: SatisfyRequest): Promise<SatisfyVerdict>;
  snapshot(request: SnapshotRequest): Promise<SnapshotOutcome>;
  failed(details: { matcher: string; message: string; expected?: unknown; actual?: unknown }): Promise<void>;
}

declare const __host: Host;

const registry = createRegistry();

// This module exists once per call, so its `expect` answers `toSatisfy` for this test only.
setJudgeRunner((request) => __host.judge(request));

// `toMatchSnapshot` calls still on their way when the test ends are waited for, so the main thread
// has every comparison before it judges the test.
const snapshotChecks: Promise<unknown>[] = [];
setSnapshotRunner((request) => {
  const checked = __host.snapshot(request);
  snapshotChecks.push(checked.catch(() => undefined));
  return checked;
});

export const test = registry.test;
export const skip = registry.test.skip;
export const todo = registry.test.todo;
export const getRegistered = registry.getRegistered;
export { expect };
/** Config helpers are no-ops here, so a test file may share code with the config. */
export const defineAdapter = <T>(adapter: T): T => adapter;
export const defineConfig = <T>(config: T): T => config;

const sandbox = globalThis as Record<string, unknown>;

sandbox.__agentest_kit_list = () =>
  registry.getRegistered().map(({ fn, ...registration }) => ({ ...registration, hasFn: typeof fn === 'function' }));

sandbox.__agentest_kit_run = async (name: string, agent: TestFnContext['agent']) => {
  const found = registry.getRegistered().filter((r) => r.name === name && typeof r.fn === 'function');
  if (found.length !== 1)
    throw new Error(
      `test "${name}" is ${found.length ? 'registered more than once' : 'no longer registered'} by its file`,
    );
  const metrics: Record<string, number> = {};
  const ctx: TestFnContext = {
    name,
    agent,
    expect,
    run: (input) => __host.run(input),
    simulate: (options) => simulateThrough(__host, options),
    log: (...args) => console.log(...args),
    metric: (metric, value) => {
      // A name every object inherits (`constructor`, `__proto__`) cannot be told apart from no metric.
      if (
        typeof metric !== 'string' ||
        !metric ||
        metric in Object.prototype ||
        typeof value !== 'number' ||
        !Number.isFinite(value)
      ) {
        throw new TypeError(
          `ctx.metric(name, value) needs a name and a finite number, got ${String(metric)} = ${String(value)}`,
        );
      }
      metrics[metric] = value;
    },
  };
  try {
    await found[0]!.fn!(ctx);
    await Promise.all(snapshotChecks);
  } catch (error) {
    await Promise.all(snapshotChecks);
    if (isAssertionError(error)) {
      const { matcher, message, expected, actual } = error;
      await __host.failed({ matcher, message, ...plain({ expected, actual }) }).catch(() => undefined);
    } else if (error instanceof Error && !error.message) {
      error.message = `${error.name || 'Error'} thrown with an empty message`;
    }
    throw error;
  }
  return { metrics };
};

/** Assertion operands as plain data, so they cross to the main thread whatever they hold. */
function plain(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    try {
      out[key] = structuredClone(value);
    } catch {
      out[key] = String(value);
    }
  }
  return out;
}
