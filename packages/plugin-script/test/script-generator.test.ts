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

  it("accepts Yao's forms: scripts:<module>.<Function>, the module a path under the app's scripts/, .ts or .js", async () => {
    const dir = app();
    writeFileSync(join(dir, 'scripts', 'top.js'), `export function Make() { return [{ id: 'J1', input: 'js' }]; }\n`);
    mkdirSync(join(dir, 'scripts', 'a', 'b'), { recursive: true });
    writeFileSync(
      join(dir, 'scripts', 'a', 'b', 'deep.ts'),
      `export function Make() { return { id: 'D1', input: 'deep' }; }\n`,
    );
    for (const [input, ids] of [
      ['scripts:tests.gen.Make', ['G1']],
      ['scripts:top.Make', ['J1']],
      ['scripts:a.b.deep.Make', ['D1']],
    ] as const) {
      const { suite, dispose } = await loadScriptGenerator(input, loadContext(dir), () => pool, undefined);
      try {
        const cases: TestCase[] = [];
        for await (const testCase of suite.cases()) cases.push(testCase);
        assert.deepEqual(
          cases.map((c) => c.id),
          ids,
          input,
        );
      } finally {
        await dispose();
      }
    }
  });

  it('refuses a reference without a module or with an empty part, showing the scripts: form', async () => {
    const dir = app();
    for (const input of [
      'scripts:Make',
      'scripts:',
      'scripts:tests..Make',
      'scripts:.gen.Make',
      'scripts:tests.gen.',
    ]) {
      await assert.rejects(
        loadScriptGenerator(input, loadContext(dir), () => pool, undefined),
        (error: unknown) => {
          const e = error as { code: string; where: string; message: string; hint: string };
          assert.equal(e.code, 'INPUT_INVALID', input);
          assert.equal(e.where, '-i');
          assert.equal(
            e.message,
            `-i ${JSON.stringify(input)} is not scripts:<module>.<Function>, a function of the app's scripts/ folder (scripts:tests.gen.Make is Make in <app>/scripts/tests/gen.ts)`,
          );
          assert.match(e.hint, /^Correct the -i value: -i "scripts:<module>\.<Function>"\. A script test suite/);
          assert.doesNotMatch(e.message + e.hint, /scripts\.<module>/, 'the process form is not what -i takes');
          return true;
        },
      );
    }
  });

  it("does not look in an assistant's src/ (Yao's agents.* processes), and names the file it looked for", async () => {
    const dir = app();
    mkdirSync(join(dir, 'assistants', 'demo', 'src'), { recursive: true });
    writeFileSync(join(dir, 'assistants', 'demo', 'package.yao'), '{}');
    writeFileSync(join(dir, 'assistants', 'demo', 'src', 'gen.ts'), `export function Make() { return []; }\n`);
    await assert.rejects(
      loadScriptGenerator('scripts:demo.gen.Make', loadContext(dir), () => pool, undefined),
      {
        code: 'GENERATOR_FAILED',
        message: `-i "scripts:demo.gen.Make": no scripts/demo/gen.ts or scripts/demo/gen.js in the app (${dir}); it takes scripts:<module>.<Function>, a function of the app's scripts/ folder (scripts:tests.gen.Make is Make in <app>/scripts/tests/gen.ts)`,
      },
    );
    await assert.rejects(
      loadScriptGenerator('scripts:scripts.tests.gen.Make', loadContext(dir), () => pool, undefined),
      { code: 'GENERATOR_FAILED', message: /; leave out the second "scripts\.": -i "scripts:tests\.gen\.Make"$/ },
    );
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
