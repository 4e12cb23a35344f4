// Script sandbox benchmark: 1,000 test functions over 20 generated files, and the cost of a hung test.
// Prints one Markdown section (run with `npm run bench -- script`).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { createKernel, type RunPlan } from '@agentest/kernel';
import script, { acquireScriptPool, compileModule } from '@agentest/plugin-script';
import { yaoPlanContext } from '@agentest/plugin-agent';
import { writeScriptApp } from './_script-app.js';

const FILES = 20;
const TESTS_PER_FILE = 50;
const THREADS = availableParallelism();

const app = writeScriptApp('agentest-script-bench-', FILES, TESTS_PER_FILE);
mkdirSync(join(app, 'assistants/hang/src'), { recursive: true });
writeFileSync(join(app, 'assistants/hang/package.yao'), '{}');
writeFileSync(
  join(app, 'assistants/hang/src/hang_test.ts'),
  [
    'function TestSyncLoop(t: any) { while (true) {} }',
    'async function TestAsyncLoop(t: any) { await null; while (true) {} }',
    'async function TestNeverSettles(t: any) { await new Promise(() => {}); }',
    // Last, so the measured cost includes whatever the hung test leaves for the next one.
    'function TestQuick(t: any) { t.assert.True(true); }',
  ].join('\n'),
);

const plan = (input: string, extra: Partial<RunPlan> = {}): RunPlan => ({
  input: { input, cwd: app },
  runs: 1,
  parallel: 1,
  failFast: false,
  env: {},
  verbose: false,
  // Who the run acts as, as the CLI's plan gives it (Yao's test-user / test-team by default).
  context: yaoPlanContext({}),
  ...extra,
});
const options = { maxThreads: THREADS };
const ms = (n: number) => `${n.toFixed(0)} ms`;

async function runSuite(input: string, extra: Partial<RunPlan> = {}, pluginOptions: { maxThreads: number } = options) {
  const kernel = createKernel({ plugins: [script(pluginOptions)] });
  return kernel.run(plan(input, extra));
}

// A lease held for the whole benchmark keeps one pool alive across the kernels, as in one CLI process.
const lease = acquireScriptPool(options);

// 1. Start-up: thread spawn + first task.
let t0 = performance.now();
await lease.pool.test({
  file: join(app, 'assistants/hang/src/hang_test.ts'),
  fn: 'TestQuick',
  args: [],
  timeoutMs: 10_000,
});
const startup = performance.now() - t0;

// 2. Compile: 20 files, first call starts esbuild's service.
t0 = performance.now();
for (let f = 0; f < FILES; f++) await compileModule(join(app, `assistants/a${f}/src/calc_test.ts`));
const compileAll = performance.now() - t0;

// 3. Sequential round trip per test (one file, one case at a time, through the kernel).
t0 = performance.now();
const sequential = await runSuite('scripts.a0.calc');
const perTestSequential = (performance.now() - t0) / TESTS_PER_FILE;

// 4. 1,000 functions: 20 files in parallel (one kernel each), each file sequential inside.
t0 = performance.now();
const all = await Promise.all(Array.from({ length: FILES }, (_, f) => runSuite(`scripts.a${f}.calc`)));
const wall = performance.now() - t0;
const passed = all.reduce((n, o) => n + o.summary.passed, 0);

// 5. Cost of one hung test with a 1 s timeout: [hung, quick] minus [quick].
async function hungCost(fn: string, pluginOptions = options) {
  const base0 = performance.now();
  await runSuite('scripts.hang.hang', { filter: /^TestQuick$/, timeoutMs: 1000 }, pluginOptions);
  const base = performance.now() - base0;
  const s = performance.now();
  const outcome = await runSuite(
    'scripts.hang.hang',
    { filter: new RegExp(`^(${fn}|TestQuick)$`), timeoutMs: 1000 },
    pluginOptions,
  );
  const cost = performance.now() - s - base;
  const statuses =
    outcome.summary.timeouts === 1 && outcome.summary.passed === 1
      ? 'timeout + passed'
      : JSON.stringify(outcome.summary);
  return { cost, statuses };
}
const hung = {
  sync: await hungCost('TestSyncLoop'),
  async: await hungCost('TestAsyncLoop'),
  never: await hungCost('TestNeverSettles'),
};
// With one thread the next test must wait for the blocked thread's grace period and replacement.
const singleLease = acquireScriptPool({ maxThreads: 1 });
await hungCost('TestQuick', { maxThreads: 1 });
const asyncOneThread = await hungCost('TestAsyncLoop', { maxThreads: 1 });
await singleLease.release();

await lease.release();
rmSync(app, { recursive: true, force: true });

const target = (ok: boolean) => (ok ? '✅' : '❌');
console.log(`## Script sandbox (\`plugin-script\`)

${FILES} generated test files × ${TESTS_PER_FILE} functions (3 assertions each, calling a sibling module), ${THREADS} worker threads, run from TypeScript sources (workers start under tsx, slower than the built \`dist/\`).

| measure | value |
|---|---|
| pool start-up (spawn ${THREADS} threads + first test) | ${ms(startup)} |
| compile ${FILES} test files with esbuild (main thread, incl. service start) | ${ms(compileAll)} (${ms(compileAll / FILES)} per file) |
| per-test overhead, one file sequentially through the kernel | ${perTestSequential.toFixed(2)} ms (${sequential.summary.passed}/${TESTS_PER_FILE} passed) |
| cold total: start-up + compile + 1,000 functions | ${ms(startup + compileAll + wall)} |
| **${FILES * TESTS_PER_FILE} functions, files in parallel** (warm pool) | **${ms(wall)}** (${(wall / (FILES * TESTS_PER_FILE)).toFixed(2)} ms/test, ${passed} passed) ${target(wall < 2000 && passed === FILES * TESTS_PER_FILE)} target < 2 s |
| hung test, 1 s timeout: sync \`while(true)\` (vm timeout, thread kept) | ${ms(hung.sync.cost)} (${hung.sync.statuses}) ${target(hung.sync.cost < 1500)} |
| hung test, 1 s timeout: loop after \`await\` (thread terminated and replaced) | ${ms(hung.async.cost)} (${hung.async.statuses}) ${target(hung.async.cost < 1500)} |
| hung test, 1 s timeout: loop after \`await\`, **1 thread** (next test waits for grace + respawn) | ${ms(asyncOneThread.cost)} (${asyncOneThread.statuses}) ${target(asyncOneThread.cost < 1500)} |
| hung test, 1 s timeout: promise that never settles | ${ms(hung.never.cost)} (${hung.never.statuses}) ${target(hung.never.cost < 1500)} |

Targets: 1,000 functions under 2 s; a hung test costs under 1.5× its timeout.`);
