import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createKernel, type Execution, type RunPlan, type RunPolicy, type TestCase } from '../src/index.js';
import { collector, inlinePlugins, plan, testCase } from './helpers.js';

/** Each case's runs, scripted by its id and run number: passes, a failure on run 2, an error. */
function scripted(c: TestCase, run: number): Partial<Execution> {
  if (c.id === 'flaky' && run === 2) return { status: 'failed', error: 'said no', output: 'no', metrics: { m: 0 } };
  if (c.id === 'broken') return { status: 'error', error: 'agent down', metrics: { m: 0 } };
  return { output: `${c.id} ${run}`, duration_ms: run, metrics: { m: run } };
}

// Stops "steady" after two runs, as `--runs auto` stops a case whose outcome is settled.
const policy: RunPolicy = (c, runs, max) =>
  c.id === 'steady' && runs.length === 2
    ? { stop: true, decision: 'accepted', reason: 'two passes' }
    : { stop: false, ...(runs.length === max ? { decision: 'undecided' } : {}) };

const cases = () => ['steady', 'flaky', 'broken', 'fine'].map((id) => testCase(id, { name: `case ${id}` }));

/** A live run of `cases`, its events; the executor calls counted. */
async function live(overrides: Partial<RunPlan>) {
  const events = collector();
  let calls = 0;
  const outcome = await createKernel({
    plugins: [...inlinePlugins(cases(), async (c, _signal, ctx) => (calls++, scripted(c, ctx.run))), events.plugin],
  }).run(plan(overrides));
  return { outcome, events: events.events, calls };
}

/** The same cases replayed from the live run's recorded runs: the executor must not be called. */
async function replayed(recorded: Map<string, Execution[]>, overrides: Partial<RunPlan>, slowReporter = false) {
  const events = collector();
  let calls = 0;
  const withRuns = cases().map((c) => ({ ...c, recordedRuns: recorded.get(c.id)! }));
  const waits = {
    name: 'test:waits',
    apply: ({ hooks }: Parameters<(typeof events.plugin)['apply']>[0]) =>
      hooks.report.tapPromise('test:waits', () => new Promise<void>((resolve) => setImmediate(resolve))),
  };
  const outcome = await createKernel({
    plugins: [...inlinePlugins(withRuns, async () => (calls++, {})), ...(slowReporter ? [waits] : []), events.plugin],
  }).run(plan(overrides));
  return { outcome, events: events.events, calls };
}

const runsOf = (events: { type: string; [k: string]: unknown }[]) =>
  new Map(events.filter((e) => e.type === 'result').map((e) => [e.id as string, e.runs as Execution[]]));

/** The events without the run's own clock (the start's timestamp, the summary's times). */
const timeless = (events: { type: string; [k: string]: unknown }[]) =>
  events.map((event) => {
    if (event.type === 'start') return { ...event, timestamp: undefined };
    if (event.type === 'summary') return { ...event, started_at: undefined, completed_at: undefined, duration_ms: 0 };
    return event;
  });

for (const [what, overrides] of [
  ['one run per case', {}],
  ['--runs 3 with a run policy and thresholds', { runs: 3, runPolicy: policy, thresholds: { pass_rate: 0.9 } }],
] as const) {
  test(`recorded runs are reported as a live run reports them, executing nothing (${what})`, async () => {
    const first = await live(overrides);
    for (const slow of [false, true]) {
      const again = await replayed(runsOf(first.events), overrides, slow);
      assert.equal(again.calls, 0, 'no executor call for a replayed case');
      assert.deepEqual(timeless(again.events), timeless(first.events));
      assert.deepEqual(
        { ...again.outcome.summary, started_at: 0, completed_at: 0, duration_ms: 0 },
        { ...first.outcome.summary, started_at: 0, completed_at: 0, duration_ms: 0 },
      );
    }
    assert.ok(first.calls > 0);
  });
}

test('a replayed case stops where the run policy says, as a live case does', async () => {
  const first = await live({ runs: 3, runPolicy: policy });
  const recorded = runsOf(first.events);
  assert.equal(recorded.get('steady')!.length, 2);
  // Recorded runs beyond the policy's stop are not reported.
  recorded.set('steady', [...recorded.get('steady')!, { ...recorded.get('steady')![0]!, run: 3 }]);
  const again = await replayed(recorded, { runs: 3, runPolicy: policy });
  const steady = again.events.find((e) => e.type === 'result' && e.id === 'steady')!;
  assert.equal((steady.runs as unknown[]).length, 2);
  assert.deepEqual(steady.run_policy, { runs: 2, max: 3, decision: 'accepted', reason: 'two passes' });
});
