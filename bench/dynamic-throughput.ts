/**
 * Dynamic cases: 50 conversations of 6 turns each, the simulated user and the agent both connectors
 * on the fake server, which answers every call after 50 ms. A case's turns are sequential (each
 * turn needs the previous reply), so the ideal is cases × (6 agent replies + 5 simulator messages)
 * × 50 ms ÷ parallel, bounded below by one case's own chain of 11 calls.
 *
 * Prints one Markdown section on stdout (collected by `npm run bench`); progress goes to stderr.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createKernel, type AgentestPlugin, type Execution, type RunPlan } from '@agentest/kernel';
import assertions from '@agentest/plugin-assert';
import agents from '@agentest/plugin-agent';
import dynamic from '@agentest/plugin-dynamic';
import jsonl from '@agentest/plugin-jsonl';
import { FakeServerThread } from './llm-throughput.js';
import { callLayers, formatCallLayers } from './_call-layers.js';
import { timeSplit } from './_time-split.js';
import { cpuComponents, formatComponents } from './_cpu-components.js';
import { threadTimes, usedBetween, type ThreadTimes } from './_thread-times.js';
import { rerunOnDist } from './_on-dist.js';
import { settle } from './_settle.js';
import { medianByWall, type Figures, type Measured } from './_dynamic-figures.js';
import { allocatedBytes } from './_allocation.js';

const CASES = Number(process.env.BENCH_CASES ?? 50);
const TURNS = 6;
const PARALLEL = 50;
const LATENCY_MS = 50;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

/** Main thread, the fake server's thread (the threads that appeared when it started) and the rest. */
function splitThreads(serverTids: number[], before: ThreadTimes, after: ThreadTimes): Figures['threads'] {
  const helperTids = [...after.keys()].filter((tid) => tid !== process.pid && !serverTids.includes(tid));
  return {
    main: usedBetween(before, after, [process.pid]),
    server: usedBetween(before, after, serverTids),
    helpers: usedBetween(before, after, helperTids),
  };
}

/** Every case opens with its input; the checkpoint is reached only by the reply to the 6th turn. */
async function writeSuite(dir: string): Promise<string> {
  const file = join(dir, `dynamic-${CASES}.jsonl`);
  const line = (i: number) =>
    JSON.stringify({
      id: `conversation-${i + 1}`,
      input: `Hello, I am customer ${i + 1}`,
      simulator: { use: 'user', options: { metadata: { persona: 'a patient customer', goal: 'reach the end' } } },
      checkpoints: [
        { id: 'started', assert: { type: 'contains', value: 'Noted' } },
        { id: 'finished', after: ['started'], assert: { type: 'contains', value: 'All done' } },
      ],
      max_turns: TURNS,
    });
  await writeFile(file, `${Array.from({ length: CASES }, (_, i) => line(i)).join('\n')}\n`);
  return file;
}

/** The simulator's brief is JSON with the turn number; the agent sees the user's last message. */
const RULES = [
  { match: `"turn_number":${TURNS}`, reply: '{"message": "That is everything, thanks", "goal_achieved": false}' },
  { match: '"turn_number"', reply: '{"message": "Tell me more", "goal_achieved": false}' },
  { match: 'everything, thanks', reply: 'All done, goodbye.' },
];
const DEFAULT_REPLY = 'Noted.';

/**
 * `http`: the `openai` connector on the fake server, the benchmark proper. `mock`: the same replies
 * and latency from the in-process `mock` connector (no HTTP, SDK or server), which measures what the
 * runner and the dynamic plugin cost on their own.
 */
type Transport = { kind: 'http'; url: string } | { kind: 'mock' };

function connectorFor(transport: Transport) {
  if (transport.kind === 'http')
    return { type: 'openai', options: { host: transport.url, model: 'fake-model', concurrency: PARALLEL * 2 } };
  const replies = RULES.map((r) => ({ match: r.match, reply: r.reply }));
  return {
    type: 'mock',
    options: { replies, default: DEFAULT_REPLY, latency_ms: LATENCY_MS, concurrency: PARALLEL * 2 },
  };
}

function benchKernel(transport: Transport, executions: Execution[]) {
  const collector: AgentestPlugin = {
    name: 'bench:collector',
    apply: ({ hooks }) =>
      hooks.report.tap('bench:collector', (e) => void (e.type === 'result' && executions.push(...e.runs))),
  };
  const connector = connectorFor(transport);
  return createKernel({
    plugins: [
      jsonl(),
      agents({
        agents: { bench: { connector: 'fake' }, user: { connector: 'fake' } },
        connectors: { fake: connector },
      }),
      assertions(),
      dynamic(),
      collector,
    ],
  });
}

/** The fake server of the `http` runs, and its threads (those that appeared when it started). */
interface Server {
  llm: FakeServerThread;
  tids: number[];
}

/**
 * One server for every run, warm as a real one is: a new one per run would spend each run compiling
 * its own HTTP path (in its thread and V8's helpers) and count that against agentest.
 */
async function startServer(): Promise<Server> {
  const before = threadTimes();
  const llm = await FakeServerThread.start({ latencyMs: LATENCY_MS, rules: RULES, default: DEFAULT_REPLY });
  return { llm, tids: [...threadTimes().keys()].filter((tid) => !before.has(tid)) };
}

async function runOnce(dir: string, server: Server | undefined): Promise<Figures> {
  const file = await writeSuite(dir);
  const llm = server?.llm;
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
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const threadsBefore = threadTimes();
  const loopBefore = performance.eventLoopUtilization();
  const transport: Transport = llm ? { kind: 'http', url: llm.url } : { kind: 'mock' };
  const outcome = await benchKernel(transport, executions).run(plan);
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const threadsAfter = threadTimes();
  const mainBusy = performance.eventLoopUtilization(loopBefore).utilization;
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const split = timeSplit(executions);
  const stats = llm ? await llm.take() : { requests: split.calls };
  const turns = executions.reduce(
    (n, e) => n + ((e.details?.dynamic as { total_turns?: number } | undefined)?.total_turns ?? 0),
    0,
  );
  return {
    wallMs,
    cpuMs,
    ...(threadsAfter.has(process.pid)
      ? { threads: splitThreads(server?.tids ?? [], threadsBefore, threadsAfter) }
      : {}),
    mainBusy,
    passed: outcome.summary.passed,
    requests: stats.requests,
    turns,
    split,
  };
}

/** CPU per call by thread group, and the main thread's wait for a core; none off Linux. */
function threadRows(best: Figures, runs: Figures[]): string[] {
  const t = best.threads;
  if (!t) return [];
  const perCall = (value: number) => `${(value / best.requests).toFixed(2)} ms`;
  return [
    `| main thread's CPU time per call (runner, plugins, connector, SDK, HTTP client) | ${perCall(t.main.cpuMs)} |`,
    `| every steady run's main-thread CPU time per call, in order | ${runs.map((r) => (r.threads ? `${(r.threads.main.cpuMs / r.requests).toFixed(2)} ms` : '–')).join(' · ')} |`,
    `| the fake server's thread, CPU time per call | ${perCall(t.server.cpuMs)} |`,
    `| V8 and libuv helper threads (garbage collection, compilation), CPU time per call | ${perCall(t.helpers.cpuMs)} |`,
    `| main thread ready to run but waiting for a core (other load on the machine) | ${ms(t.main.waitMs)} |`,
  ];
}

const ms = (value: number): string => `${Math.round(value).toLocaleString('en-US')} ms`;

function formatMarkdown(best: Figures, runs: Figures[], mock: Figures): string {
  const calls = TURNS + (TURNS - 1);
  const ideal = (CASES * calls * LATENCY_MS) / PARALLEL;
  const perCall = (valueMs: number, f: Figures = best) => `${(valueMs / f.requests).toFixed(2)} ms`;
  return [
    '## Dynamic cases (simulated user, 6 turns) against the fake server',
    '',
    `${CASES} dynamic cases through the JSONL loader, the agent plugin, the \`openai\` connector and the dynamic plugin: each opens with its input, then a simulated user (a connector on the same fake server) speaks on turns 2–${TURNS}, and the checkpoint \`finished\` is reached only by the reply to turn ${TURNS}. \`@agentest/fake-llm\` (in a worker thread) answers every call after ${LATENCY_MS} ms; \`--parallel ${PARALLEL}\`. The built packages run (\`dist/\`, as the CLI runs them). The table is the median by wall time of ${RUNS} steady runs, made once V8 has settled (the first runs after one warm-up are below it, side by side with these). CPU times per thread come from Linux's per-thread scheduler statistics.`,
    '',
    '| figure | value |',
    '|---|---|',
    `| wall time (median steady run) | ${ms(best.wallMs)} |`,
    `| every steady run's wall time, in order | ${runs.map((r) => ms(r.wallMs)).join(' · ')} |`,
    `| ideal: cases × (${TURNS} agent replies + ${TURNS - 1} simulator messages) × ${LATENCY_MS} ms ÷ ${PARALLEL} | ${ms(ideal)} |`,
    `| ideal ÷ wall (target ≥ 85 %) | ${pct(ideal, best.wallMs)} ${ideal / best.wallMs >= 0.85 ? '✅' : '❌'} |`,
    `| CPU time per call (median steady run; whole process, fake server included) | ${perCall(best.cpuMs)} |`,
    `| every steady run's CPU time per call, in order | ${runs.map((r) => perCall(r.cpuMs, r)).join(' · ')} |`,
    ...threadRows(best, runs),
    `| main thread's event loop busy (share of the wall time) | ${(best.mainBusy * 100).toFixed(0)} % |`,
    `| a call as the case saw it, request to reply (mean; ${LATENCY_MS} ms of it is the server's latency) | ${best.split.callMs.toFixed(1)} ms |`,
    `| a case's time between its calls, per call (reading the reply, checkpoints, the next request) | ${best.split.gapPerCallMs.toFixed(2)} ms |`,
    `| slowest case / run wall time | ${ms(best.split.slowestCaseMs)} / ${ms(best.wallMs)} |`,
    `| requests served / agent turns recorded | ${best.requests} (${CASES * calls} expected) / ${best.turns} (${CASES * TURNS} expected) |`,
    `| passed | ${best.passed} / ${CASES} |`,
    `| the same suite on the \`mock\` connector (no HTTP, SDK or server; ${LATENCY_MS} ms latency in-process): wall, ideal ÷ wall | ${ms(mock.wallMs)}, ${pct(ideal, mock.wallMs)} |`,
    `| the same on the \`mock\` connector: main thread's CPU time per call | ${mock.threads ? perCall(mock.threads.main.cpuMs, mock) : '–'} |`,
    `| machine load (1-minute average, ${availableParallelism()} cores) at the end | ${loadavg()[0]!.toFixed(1)} |`,
    '',
    ...explanation(best, mock, ideal, calls),
  ].join('\n');
}

/** Where the time goes, in the run's own figures. */
function explanation(best: Figures, mock: Figures, ideal: number, calls: number): string[] {
  const pace = ideal / (CASES * calls);
  const main = best.threads?.main;
  const mainPerCall = main ? main.cpuMs / best.requests : undefined;
  return [
    `A conversation's calls are sequential (each turn waits for the previous reply), so with one case per lane the ideal is one case's chain of ${calls} calls. At that pace the ${PARALLEL} lanes, each with one call in flight for ${LATENCY_MS} ms, need the main thread to finish a call every ${pace.toFixed(2)} ms: the runner, the connector, the OpenAI SDK and Node's HTTP client all run there, so their CPU time per call is what bounds the wall time, not the latency.` +
      (mainPerCall !== undefined
        ? ` In this run the main thread spent ${mainPerCall.toFixed(2)} ms of CPU per call, so its ${best.requests} calls alone need ${ms(main!.cpuMs)} of one core, which by itself caps ideal ÷ wall at ${pct(ideal, main!.cpuMs)} before any latency or queueing, and it waited ${ms(main!.waitMs)} for a core held by other work on the machine; the fake server's thread and V8's helpers (garbage collection, compilation) used another ${((best.threads!.server.cpuMs + best.threads!.helpers.cpuMs) / best.requests).toFixed(2)} ms per call on the same ${availableParallelism()} cores.`
        : ''),
    '',
    ...budget(best, ideal),
    '',
    `The runner and the dynamic plugin are a small part of it: on the \`mock\` connector the same suite costs ${mockShare(best, mock)} of main-thread CPU per call and reaches ${pct(ideal, mock.wallMs)} of the ideal on the same machine. The rest of the per-call cost is the HTTP exchange (Node's client, loopback TCP and the socket writes), the SDK's request building and reply parsing, and the fake server's own HTTP handling. The lanes also stay nearly in step, so each of the ${calls} steps is a burst of ${CASES} calls queued on the main thread. CPU time per call is far less sensitive to other load on the machine than wall time, so it is the figure to compare between runs on a busy machine.`,
  ];
}

/**
 * The CPU the suite needs against what the machine has at the target: 85 % of the ideal leaves a
 * wall time in which the cores give so much CPU, and every thread's calls must fit in it.
 */
function budget(best: Figures, ideal: number): string[] {
  const t = best.threads;
  if (!t) return [];
  const cores = availableParallelism();
  const targetWall = ideal / 0.85;
  const needed = t.main.cpuMs + t.server.cpuMs + t.helpers.cpuMs;
  const perCall = (value: number) => `${(value / best.requests).toFixed(2)} ms`;
  return [
    `The target (85 % of the ideal) is a wall time of ${ms(targetWall)}, in which ${cores} cores give ${ms(targetWall * cores)} of CPU with nothing else running, and the main thread at most ${ms(targetWall)}. This run's calls needed ${ms(needed)} (${perCall(needed)} per call: the main thread ${perCall(t.main.cpuMs)}, the fake server's thread ${perCall(t.server.cpuMs)}, V8's helpers ${perCall(t.helpers.cpuMs)}), so the whole process must stay under ${perCall(targetWall * cores)} per call and the main thread well under ${perCall(targetWall)} (it also waits for each reply's ${LATENCY_MS} ms, so it cannot be busy all the time).`,
  ];
}

/** The mock run's main-thread CPU per call, and its share of the HTTP run's. */
function mockShare(best: Figures, mock: Figures): string {
  if (!mock.threads || !best.threads) return 'little';
  const mockPerCall = mock.threads.main.cpuMs / mock.requests;
  const share = mockPerCall / (best.threads.main.cpuMs / best.requests);
  return `${mockPerCall.toFixed(2)} ms (${(share * 100).toFixed(0)} % of the \`openai\` run's)`;
}

function pct(ideal: number, wallMs: number): string {
  return `${((ideal / wallMs) * 100).toFixed(1)} %`;
}

/**
 * The first runs after one warm-up against the steady runs, side by side: how much of the first
 * runs' CPU is V8 still compiling the hot code (on its helper threads, and slower code on the main
 * thread meanwhile).
 */
function formatWarmup(m: Measured): string {
  const calls = TURNS + (TURNS - 1);
  const ideal = (CASES * calls * LATENCY_MS) / PARALLEL;
  const perCall = (f: Figures, pick: (t: NonNullable<Figures['threads']>) => number) =>
    f.threads ? `${(pick(f.threads) / f.requests).toFixed(2)} ms` : '–';
  const row = (f: Figures) =>
    `${ms(f.wallMs)} | ${pct(ideal, f.wallMs)} | ${perCall(f, (t) => t.main.cpuMs)} | ${perCall(f, (t) => t.server.cpuMs)} | ${perCall(f, (t) => t.helpers.cpuMs)} | ${(f.cpuMs / f.requests).toFixed(2)} ms`;
  return [
    '',
    `The figures above are the steady state, which the target is judged on: a throughput bench measures the pace a suite keeps, and a suite longer than a few hundred calls runs almost all of them on compiled code. V8 first interprets the hot code, then compiles it on its helper threads, which take CPU from the same 2 cores meanwhile. So after one warm-up the bench makes ${RUNS} first runs, then runs the suite until its CPU per call stops falling (two runs in a row no more than 3 % under the least before them; whole-process CPU per call of each: ${m.settling.map((v) => `${v.toFixed(2)} ms`).join(' · ')}), then ${RUNS} steady runs on the same server. Both medians, side by side:`,
    '',
    '| runs | wall | ideal ÷ wall | main thread CPU per call | fake server | V8 helpers | whole process |',
    '|---|---|---|---|---|---|---|',
    `| first runs after one warm-up (median; every run: ${m.firstRuns.map((f) => `${ms(f.wallMs)} ${pct(ideal, f.wallMs)}`).join(' · ')}) | ${row(m.first)} |`,
    `| steady runs (median; every run: ${m.runs.map((f) => `${ms(f.wallMs)} ${pct(ideal, f.wallMs)}`).join(' · ')}) | ${row(m.best)} |`,
    ...(m.allocatedPerCall !== undefined
      ? [
          '',
          `The main thread allocates about ${(m.allocatedPerCall / 1024).toFixed(1)} KB per call (V8's sampling heap profiler over one more steady run, the objects already collected included): the garbage V8's collector clears on the main thread and its helpers.`,
        ]
      : []),
  ].join('\n');
}

type Layers = Awaited<ReturnType<typeof callLayers>>;

/** Main-thread CPU per call of each connector layer, against the fake server with the suite's latency. */
async function measureLayers(): Promise<Layers> {
  const llm = await FakeServerThread.start({ latencyMs: LATENCY_MS, default: DEFAULT_REPLY });
  try {
    return await callLayers(llm.url, CASES * (TURNS + TURNS - 1), PARALLEL);
  } finally {
    await llm.stop();
  }
}

/**
 * A warm-up, then `RUNS` first runs; then runs until V8 has settled (see `settle`), then `RUNS`
 * steady runs. Both medians are reported; the steady one is the bench's figure.
 */
async function measure(dir: string, kind: Transport['kind']): Promise<Measured> {
  const server = kind === 'http' ? await startServer() : undefined;
  const label = `(${CASES} cases × ${TURNS} turns, ${LATENCY_MS} ms, parallel ${PARALLEL})`;
  try {
    console.error(`${kind}: warm-up…`);
    await runOnce(dir, server);
    const firstRuns: Figures[] = [];
    for (let run = 1; run <= RUNS; run++) {
      console.error(`${kind}: first run ${run}/${RUNS} ${label}…`);
      firstRuns.push(await runOnce(dir, server));
    }
    console.error(`${kind}: runs until the CPU per call stops falling…`);
    const settling = await settle(async () => {
      const f = await runOnce(dir, server);
      return f.cpuMs / f.requests;
    });
    const runs: Figures[] = [];
    for (let run = 1; run <= RUNS; run++) {
      console.error(`${kind}: steady run ${run}/${RUNS} ${label}…`);
      runs.push(await runOnce(dir, server));
    }
    const measured = { best: medianByWall(runs), runs, first: medianByWall(firstRuns), firstRuns, settling };
    if (!server) return measured;
    // One more run under the sampling profiler (which slows it): what the main thread's CPU went to.
    console.error(`${kind}: one more run, profiled…`);
    const components = await cpuComponents(() => runOnce(dir, server));
    console.error(`${kind}: one more run, its allocation sampled…`);
    let requests = 0;
    const bytes = await allocatedBytes(async () => (requests = (await runOnce(dir, server)).requests));
    return { ...measured, components, allocatedPerCall: bytes / requests };
  } finally {
    await server?.llm.stop();
  }
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'agentest-bench-dynamic-'));
  try {
    const http = await measure(dir, 'http');
    const mock = await measure(dir, 'mock');
    console.error('the connector layer by layer…');
    const layers = await measureLayers();
    console.log(formatMarkdown(http.best, http.runs, mock.best));
    console.log(formatWarmup(http));
    console.log(formatCallLayers(layers, CASES * (TURNS + TURNS - 1), PARALLEL));
    const main = http.best.threads?.main;
    if (main) console.log(formatComponents(http.components ?? [], main.cpuMs / http.best.requests));
    if ([...http.runs, ...http.firstRuns, ...mock.runs].some((r) => r.passed !== CASES)) process.exitCode = 1;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (!rerunOnDist(import.meta.url)) await main();
