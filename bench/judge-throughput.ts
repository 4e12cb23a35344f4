/**
 * Judged cases: every case has one `agent` assertion with `samples: 3`, judged by a connector on the
 * fake server, which answers the agent and each judge sample after 50 ms. It measures that the
 * samples run concurrently and that judging adds nothing beyond the judge's own latency.
 *
 * Prints one Markdown section on stdout (collected by `npm run bench`); progress goes to stderr.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKernel, type AgentestPlugin, type Execution, type RunPlan } from '@agentest/kernel';
import judge from '@agentest/judge';
import agents from '@agentest/plugin-agent';
import jsonl from '@agentest/plugin-jsonl';
import { FakeServerThread } from './llm-throughput.js';
import { rerunOnDist } from './_on-dist.js';

const CASES = 200;
const SAMPLES = 3;
const PARALLEL = 32;
const LATENCY_MS = 50;
const RUNS = 3;

interface Figures {
  wallMs: number;
  passed: number;
  requests: number;
  judgeCalls: number;
  /** Mean over cases of the judge's wall time for its three samples. */
  judgeMeanMs: number;
  /** Mean over cases of the agent's own duration (judge time left out). */
  agentMeanMs: number;
}

/** Writes the suite: `cases` questions, each with the judged assertion unless `judged` is false. */
async function writeSuite(dir: string, cases: number, judged: boolean): Promise<string> {
  const file = join(dir, `${judged ? 'judged' : 'plain'}-${cases}.jsonl`);
  const assertion = { type: 'agent', use: 'connector:judge', value: 'The answer names a city', samples: SAMPLES };
  await writeFile(
    file,
    Array.from({ length: cases }, (_, i) =>
      JSON.stringify({
        id: `case-${i + 1}`,
        input: `Question number ${i + 1}?`,
        ...(judged ? { assert: assertion } : {}),
      }),
    ).join('\n') + '\n',
  );
  return file;
}

/** The kernel: JSONL cases, the `bench` agent and the `judge` connector on the fake server, the judge plugin. */
function benchKernel(url: string, executions: Execution[]) {
  const collector: AgentestPlugin = {
    name: 'bench:collector',
    apply: ({ hooks }) =>
      hooks.report.tap('bench:collector', (e) => void (e.type === 'result' && executions.push(...e.runs))),
  };
  // Connector limits above what the run can ask at once, so they are not what is measured.
  const connector = (concurrency: number) => ({
    type: 'openai',
    options: { host: url, model: 'fake-model', concurrency },
  });
  return createKernel({
    plugins: [
      jsonl(),
      agents({
        agents: { bench: { connector: 'fake' } },
        connectors: { fake: connector(PARALLEL), judge: connector(PARALLEL * SAMPLES) },
      }),
      judge(),
      collector,
    ],
  });
}

/** One run of `cases` cases; `judged: false` is the baseline, the same cases without their assertion. */
async function runOnce(dir: string, cases: number, judged = true): Promise<Figures> {
  const file = await writeSuite(dir, cases, judged);
  // The judge's payload holds the criteria; the agent's question does not.
  const llm = await FakeServerThread.start({
    latencyMs: LATENCY_MS,
    rules: [{ match: '"criteria"', reply: '{"passed": true, "reason": "names Paris"}' }],
    default: 'Paris.',
  });
  const executions: Execution[] = [];
  const plan: RunPlan = {
    input: { input: file, cwd: dir },
    agent: { id: 'bench' },
    runs: 1,
    parallel: PARALLEL,
    failFast: false,
    env: {},
    verbose: false,
  };
  let stats: { requests: number } | undefined;
  try {
    const started = performance.now();
    const outcome = await benchKernel(llm.url, executions).run(plan);
    const wallMs = performance.now() - started;
    stats = await llm.stop();
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
    return {
      wallMs,
      passed: outcome.summary.passed,
      requests: stats.requests,
      judgeCalls: executions.reduce((n, e) => n + (e.judge?.calls ?? 0), 0),
      judgeMeanMs: mean(executions.map((e) => e.judge?.duration_ms ?? 0)),
      agentMeanMs: mean(executions.map((e) => e.duration_ms)),
    };
  } finally {
    if (!stats) await llm.stop();
  }
}

const ms = (value: number): string => `${Math.round(value).toLocaleString('en-US')} ms`;

function formatMarkdown(best: Figures, runs: Figures[], plain: Figures): string {
  // The brief's ideal counts every call one after another in a lane; the lane-bound ideal knows that
  // a case's three samples share one 50 ms wait (one agent call, then one round of judging).
  const ideal = (CASES * (1 + SAMPLES) * LATENCY_MS) / PARALLEL;
  const laneBound = Math.ceil(CASES / PARALLEL) * 2 * LATENCY_MS;
  const efficiency = ideal / best.wallMs;
  return [
    '## Judged assertions (samples: 3) against the fake server',
    '',
    `${CASES} cases, each with one \`agent\` assertion (\`"use": "connector:judge"\`, \`"samples": ${SAMPLES}\`), through the JSONL loader, the agent plugin, the \`openai\` connector and the judge plugin, to \`@agentest/fake-llm\` (in a worker thread) answering every call after ${LATENCY_MS} ms, at \`--parallel ${PARALLEL}\`. The built packages run (\`dist/\`, as the CLI runs them). One warm-up, then ${RUNS} runs; the table is the median run by wall time.`,
    '',
    '| figure | value |',
    '|---|---|',
    `| wall time (median run) | ${ms(best.wallMs)} |`,
    `| every run's wall time, in order | ${runs.map((r) => ms(r.wallMs)).join(' · ')} |`,
    `| ideal: cases × (1 agent call + ${SAMPLES} judge calls) × ${LATENCY_MS} ms ÷ ${PARALLEL} | ${ms(ideal)} |`,
    `| ideal ÷ wall (target ≥ 85 %) | ${(efficiency * 100).toFixed(1)} % ${efficiency >= 0.85 ? '✅' : '❌'} |`,
    `| lane-bound ideal: ⌈cases ÷ ${PARALLEL}⌉ × (agent + one concurrent round of samples) × ${LATENCY_MS} ms | ${ms(laneBound)} (wall is ${((laneBound / best.wallMs) * 100).toFixed(1)} % of it) |`,
    `| baseline: the same cases without the assertion (one call each; ideal ${ms((CASES * LATENCY_MS) / PARALLEL)}) | ${ms(plain.wallMs)} |`,
    `| judged ÷ baseline (load-independent: ${1 + SAMPLES}× the calls, 2× the lane-bound ideal) | ${(best.wallMs / plain.wallMs).toFixed(2)}× |`,
    `| judge calls recorded / requests served | ${best.judgeCalls} / ${best.requests} (${CASES} agent + ${CASES * SAMPLES} judge) |`,
    `| mean judge time per case (3 samples) / mean agent time per case | ${ms(best.judgeMeanMs)} / ${ms(best.agentMeanMs)} |`,
    `| passed | ${best.passed} / ${CASES} |`,
    `| machine load (1-minute average, ${availableParallelism()} cores) at the end | ${loadavg()[0]!.toFixed(1)} |`,
    '',
    `A case's three samples are asked at once, so judging a case takes about as long as one call: ${ms(best.judgeMeanMs)} for the three samples against ${ms(best.agentMeanMs)} for the agent's one call. The judge's time is counted apart: the agent's mean duration excludes it. The fake server and the client share the machine's two cores with whatever else runs, so every call's CPU time (HTTP, SDK, JSON) queues on them; on a loaded machine the ratio to the baseline, run in the same minutes, is the figure that compares.`,
  ].join('\n');
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'agentest-bench-judge-'));
  try {
    console.error('warm-up (32 cases)…');
    await runOnce(dir, 32);
    const runs: Figures[] = [];
    for (let run = 1; run <= RUNS; run++) {
      console.error(
        `judged ${run}/${RUNS} (${CASES} cases, samples ${SAMPLES}, ${LATENCY_MS} ms, parallel ${PARALLEL})…`,
      );
      runs.push(await runOnce(dir, CASES));
    }
    const best = [...runs].sort((a, b) => a.wallMs - b.wallMs)[Math.floor(RUNS / 2)]!;
    console.error(`baseline (${CASES} cases without the assertion)…`);
    const plain = await runOnce(dir, CASES, false);
    console.log(formatMarkdown(best, runs, plain));
    if (runs.some((r) => r.passed !== CASES)) process.exitCode = 1;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (!rerunOnDist(import.meta.url)) await main();
