import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { KernelApi, RunEvent, RunPlan } from '@agentest/kernel';
import snapshotPlugin from '../src/index.js';

type Tapped = { hook: string; options: unknown; fn: (...args: unknown[]) => unknown };

/** The plugin's taps, as it registers them on a kernel. */
function tapsOf(cwd: string): Tapped[] {
  const taps: Tapped[] = [];
  const hook = (name: string): unknown => {
    const tap = (options: unknown, fn: Tapped['fn']) => void taps.push({ hook: name, options, fn });
    return { tap, tapPromise: tap, tapAsync: tap, for: () => hook(name) };
  };
  const hooks = new Proxy({}, { get: (_, name) => hook(String(name)) });
  snapshotPlugin({ cwd, ci: false }).apply({ hooks, reportError: () => undefined } as unknown as KernelApi);
  return taps;
}

test('the report tap answers every event but the summary without a promise (none per case)', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'snapshot-tap-'));
  try {
    const taps = tapsOf(cwd);
    taps.find((t) => t.hook === 'setup')!.fn({ options: {} } as RunPlan);
    const report = taps.find((t) => t.hook === 'report')!;
    const deliver = (report.options as { deliver: (event: RunEvent) => unknown }).deliver;
    const result = { type: 'result', id: 'a', status: 'passed', source: { file: join(cwd, 'a.jsonl') } };
    assert.equal(deliver(result as RunEvent), undefined);
    assert.equal(deliver({ type: 'case_start', id: 'b', run: 1, runs: 1 } as RunEvent), undefined);
    const summary = { type: 'summary' } as RunEvent;
    const finishing = deliver(summary);
    assert.ok(finishing instanceof Promise, 'the summary waits for the store');
    await finishing;
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});
