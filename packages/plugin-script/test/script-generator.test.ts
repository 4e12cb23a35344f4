import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { LoadContext, RunPlan, TestCase } from '@agentest/kernel';
import { createScriptPool, type ScriptPool } from '../src/index.js';
import { loadScriptGenerator } from '../src/script-generator.js';
import { HANG_MS } from './helpers.js';

/** The generator's `--timeout`: short, as a user may give it. */
const TIMEOUT = 500;

function app(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-script-generator-'));
  mkdirSync(join(dir, 'scripts', 'tests'), { recursive: true });
  writeFileSync(join(dir, 'app.yao'), '{}');
  writeFileSync(
    join(dir, 'scripts', 'tests', 'gen.ts'),
    `export function Make(target) { return [{ id: 'G1', input: 'hello from ' + target.id }]; }\n`,
  );
  // Holds the pool's only worker until the test lets it go.
  writeFileSync(
    join(dir, 'scripts', 'tests', 'hold.ts'),
    `export async function Hold() { await __host.hold(); return 'released'; }\n`,
  );
  return dir;
}

function loadContext(dir: string): LoadContext {
  const plan = { timeoutMs: TIMEOUT, input: { cwd: dir }, agent: { id: 'echo' } } as unknown as RunPlan;
  return { plan, resolveAgent: () => Promise.reject(new Error('no agents here')) };
}

describe('-i "scripts:<module>.<Function>"', () => {
  let pool: ScriptPool;
  before(() => {
    pool = createScriptPool({ maxThreads: 1 });
  });
  after(() => pool.close());

  it('charges --timeout with the generator’s own run, not with the wait for a busy worker', async () => {
    const dir = app();
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const hold = async () => {
      holding();
      await gate;
    };
    const busy = pool.call({
      file: join(dir, 'scripts/tests/hold.ts'),
      fn: 'Hold',
      args: [],
      timeoutMs: HANG_MS,
      host: { hold },
    });
    await held;
    // The only worker is busy: the generator waits in the pool's queue, here three times its time limit.
    const generated = loadScriptGenerator('scripts:tests.gen.Make', loadContext(dir), () => pool, undefined);
    const settledEarly = await Promise.race([
      delay(3 * TIMEOUT).then(() => false),
      generated.then(
        () => true,
        () => true,
      ),
    ]);
    release();
    assert.equal((await busy).status, 'ok');
    assert.equal(settledEarly, false, 'the generator did not give up while it waited for the worker');
    const { suite, dispose } = await generated;
    try {
      const cases: TestCase[] = [];
      for await (const testCase of suite.cases()) cases.push(testCase);
      assert.deepEqual(
        cases.map((c) => [c.id, c.input]),
        [['G1', 'hello from echo']],
      );
    } finally {
      await dispose();
    }
  });

  it('still stops a generator that runs past --timeout', async () => {
    const dir = app();
    writeFileSync(join(dir, 'scripts', 'tests', 'slow.ts'), `export function Slow() { for (;;) {} }\n`);
    await assert.rejects(
      loadScriptGenerator('scripts:tests.slow.Slow', loadContext(dir), () => pool, undefined),
      {
        code: 'GENERATOR_FAILED',
        message: new RegExp(`^-i "scripts:tests\\.slow\\.Slow": Slow timed out: timeout after ${TIMEOUT}ms`),
      },
    );
  });
});
