/**
 * `t.assert.MatchSnapshot(value, name?)` in script tests, run in real worker threads: the worker asks
 * the main thread, which uses the run's snapshot store, so the file, `--update`, the CI rule, obsolete
 * entries and the diff are those of the `snapshot` assertion.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import snapshotPlugin from '@agentest/snapshot';
import { HANG_MS, plan, runKernel } from './helpers.js';

const TESTS = `
export function TestShapes(t: any) {
  const first = t.assert.MatchSnapshot(Process("data.value"));
  t.log("first " + first);
  t.assert.MatchSnapshot({ b: 2, a: [1, "x"] });
  if (Process("data.named")) t.assert.MatchSnapshot("named text", "greeting");
}

export function TestBadName(t: any) {
  t.assert.MatchSnapshot(1, "#2");
}
`;

const SNAPSHOTS = 'assistants/snap/src/__snapshots__/snap_test.snap.jsonl';

describe('t.assert.MatchSnapshot', () => {
  const root = mkdtempSync(join(tmpdir(), 'agentest-script-snap-'));
  for (const [path, content] of Object.entries({
    'app.yao': '{}',
    'assistants/snap/package.yao': '{}',
    'assistants/snap/src/snap_test.ts': TESTS,
  })) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  const file = join(root, SNAPSHOTS);
  after(() => rmSync(root, { recursive: true, force: true }));

  const run = (value: unknown, options: { update?: boolean; ci?: boolean; named?: boolean } = {}) =>
    runKernel(
      plan('scripts.snap.snap', root, { timeoutMs: HANG_MS }),
      { processes: { 'data.value': { value }, 'data.named': { value: options.named ?? true } } },
      [snapshotPlugin({ update: options.update ?? false, ci: options.ci ?? false, cwd: root })],
    );

  it('in CI, a missing snapshot fails the test and nothing is written', { timeout: HANG_MS }, async () => {
    const { runs } = await run('v1', { ci: true });
    const shapes = runs.get('TestShapes')!;
    assert.equal(shapes.status, 'failed');
    assert.equal(
      shapes.error,
      `assertion failed: snapshot #1 of case TestShapes is not in ${SNAPSHOTS}, and CI is set, so it is not written; run with --update and commit the file`,
    );
    assert.ok(shapes.logs.includes('first false'), 'the test goes on after a failed snapshot');
    assert.equal(existsSync(file), false);
  });

  it('writes missing snapshots, keyed by test name and ordinal or name', { timeout: HANG_MS }, async () => {
    const { runs, summary } = await run('v1');
    assert.equal(runs.get('TestShapes')!.status, 'passed', runs.get('TestShapes')!.error);
    assert.equal(
      readFileSync(file, 'utf8'),
      [
        '{"case":"TestShapes","key":"#1","value":"v1"}',
        '{"case":"TestShapes","key":"#2","value":{"a":[1,"x"],"b":2}}',
        '{"case":"TestShapes","key":"greeting","value":"named text"}',
        '',
      ].join('\n'),
    );
    assert.equal(summary.snapshots?.written, 3);
    const bad = runs.get('TestBadName')!;
    assert.equal(bad.status, 'failed');
    assert.match(bad.error!, /MatchSnapshot: the name "#2" is kept for unnamed snapshots/);
  });

  it('a different value fails with a diff and leaves the file as it was', { timeout: HANG_MS }, async () => {
    const before = readFileSync(file, 'utf8');
    const { runs } = await run('v2');
    const shapes = runs.get('TestShapes')!;
    assert.equal(shapes.status, 'failed');
    assert.equal(
      shapes.error,
      `assertion failed: value does not match snapshot #1 in ${SNAPSHOTS} (run with --update to accept it):\n--- snapshot\n+++ output\n- v1\n+ v2`,
    );
    assert.deepEqual(
      {
        expected: (shapes.details!.assertion as { expected: unknown }).expected,
        actual: (shapes.details!.assertion as { actual: unknown }).actual,
      },
      { expected: 'v1', actual: 'v2' },
    );
    assert.equal(readFileSync(file, 'utf8'), before);
  });

  it(
    '--update replaces it; a snapshot no longer made is obsolete, and --update removes it',
    { timeout: HANG_MS },
    async () => {
      const updated = await run('v2', { update: true });
      assert.equal(updated.runs.get('TestShapes')!.status, 'passed');
      assert.match(readFileSync(file, 'utf8'), /"key":"#1","value":"v2"/);

      const stale = await run('v2', { named: false });
      assert.deepEqual(stale.summary.snapshots?.obsolete, [`${SNAPSHOTS}: TestShapes greeting`]);
      assert.match(readFileSync(file, 'utf8'), /greeting/, 'obsolete entries stay without --update');

      const removed = await run('v2', { named: false, update: true });
      assert.equal(removed.summary.snapshots?.removed, 1);
      assert.doesNotMatch(readFileSync(file, 'utf8'), /greeting/);
    },
  );

  it('without the snapshot plugin, MatchSnapshot fails saying why', { timeout: HANG_MS }, async () => {
    const { runs } = await runKernel(plan('scripts.snap.snap', root, { timeoutMs: HANG_MS, filter: /TestShapes/ }), {
      processes: { 'data.value': { value: 'v1' }, 'data.named': { value: false } },
    });
    assert.match(
      runs.get('TestShapes')!.error!,
      /this run has no snapshot store \(the snapshot plugin, @agentest\/snapshot, is not loaded\)/,
    );
  });
});
