// Coverage overhead: the script sandbox benchmark's 1,000 test functions with and without `--coverage`.
// Prints one Markdown section (run with `npm run bench -- coverage`).
import { rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { createKernel, type AgentestPlugin, type RunPlan } from '@agentest/kernel';
import script, { acquireScriptPool, coveragePlugin, type CoverageOutcome } from '@agentest/plugin-script';
import { yaoPlanContext } from '@agentest/plugin-agent';
import { writeScriptApp } from './_script-app.js';

const FILES = 20;
const TESTS_PER_FILE = 50;
const THREADS = availableParallelism();
const ROUNDS = 3;

// The same app as bench/script-bench.ts, each calc.ts with one function no test calls.
const app = writeScriptApp(
  'agentest-coverage-bench-',
  FILES,
  TESTS_PER_FILE,
  'function Unused(n: number) { return -n; }\n',
);

const plan = (input: string): RunPlan => ({
  input: { input, cwd: app },
  runs: 1,
  parallel: THREADS,
  failFast: false,
  env: {},
  verbose: false,
  context: yaoPlanContext({}),
});
const options = { maxThreads: THREADS };

/**
 * The 20 files one after another, each its own kernel run (as the CLI runs a suite): with coverage, each
 * run counts its file, maps it and writes lcov and the text table, as `--coverage` does.
 */
async function runAll(coverage: boolean): Promise<{ ms: number; passed: number; last?: CoverageOutcome }> {
  let passed = 0;
  let last: CoverageOutcome | undefined;
  const started = performance.now();
  for (let f = 0; f < FILES; f++) {
    const plugins: AgentestPlugin[] = [script(options)];
    if (coverage)
      plugins.push(coveragePlugin({ cwd: app, dir: join(app, 'coverage', `a${f}`), onCoverage: (o) => (last = o) }));
    const outcome = await createKernel({ plugins }).run(plan(`scripts.a${f}.calc`));
    passed += outcome.summary.passed;
  }
  return { ms: performance.now() - started, passed, ...(last ? { last } : {}) };
}

// A lease held for the whole benchmark keeps one warm pool across the kernels, as in one CLI process.
const lease = acquireScriptPool(options);
const loadBefore = loadavg()[0]!;
await runAll(false);
await runAll(true);
const off: number[] = [];
const on: number[] = [];
let passedOff = 0;
let passedOn = 0;
let sample: CoverageOutcome | undefined;
for (let round = 0; round < ROUNDS; round++) {
  const plain = await runAll(false);
  const covered = await runAll(true);
  off.push(plain.ms);
  on.push(covered.ms);
  passedOff = plain.passed;
  passedOn = covered.passed;
  sample = covered.last;
}
const loadAfter = loadavg()[0]!;
await lease.release();
rmSync(app, { recursive: true, force: true });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (n: number) => `${n.toFixed(0)} ms`;
const total = FILES * TESTS_PER_FILE;
const ratio = median(on) / median(off);
const calc = sample?.summary.files.find((file) => file.file.endsWith('calc.ts'));
console.log(`## Coverage overhead (\`--coverage\`)

The script sandbox benchmark's app: ${FILES} test files × ${TESTS_PER_FILE} functions calling a sibling module, ${THREADS} worker
threads, run from TypeScript sources. Each file is one kernel run (as one \`agentest test -i scripts.…\`), the ${FILES} one
after another on a warm pool; with coverage each run also takes the threads' counts, maps them through the source maps
and writes \`lcov.info\` and the text table. ${ROUNDS} rounds, without and with coverage alternating, after one warm-up of each.
Load average (1 min) ${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after on ${THREADS} cores: on a busy machine the times
are long, and the ratio is the number to read.

| | runs | median | per test |
|---|---|---|---|
| without coverage | ${off.map(ms).join(', ')} | **${ms(median(off))}** | ${(median(off) / total).toFixed(2)} ms (${passedOff}/${total} passed) |
| with \`--coverage\` | ${on.map(ms).join(', ')} | **${ms(median(on))}** | ${(median(on) / total).toFixed(2)} ms (${passedOn}/${total} passed) |

**Ratio with / without: ${ratio.toFixed(2)}×** (${ms(median(on) - median(off))} more for ${total} tests, ${((median(on) - median(off)) / FILES).toFixed(0)} ms per run).
The last run's \`calc.ts\`: lines ${calc?.lines.pct ?? '?'}%, functions ${calc?.functions.pct ?? '?'}% (\`Unused\` is never called), uncovered line ${calc?.uncovered_lines || '–'}.`);
