/**
 * LLM throughput: agent cases sent through the real stack (the JSONL loader, the agent plugin, the
 * `openai` connector and its SDK) to the fake server over HTTP. It measures what agentest adds on top
 * of the model's latency, and checks that a rate-limit storm loses no case.
 *
 * Prints one Markdown section on stdout (collected by `npm run bench`); progress goes to stderr.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { createKernel, type AgentestPlugin, type Execution, type RunPlan } from '@agentest/kernel';
import { createChatClient } from '@agentest/connectors';
import { startFakeLlm, type FakeLlmOptions } from '@agentest/fake-llm';
import agents from '@agentest/plugin-agent';
import jsonl from '@agentest/plugin-jsonl';
import { rerunOnDist } from './_on-dist.js';
import { settle } from './_settle.js';
import { threadTimes, usedBetween } from './_thread-times.js';

export interface ThroughputFigures {
  cases: number;
  parallel: number;
  latencyMs: number;
  wallMs: number;
  idealMs: number;
  passed: number;
  durations: { mean: number; p50: number; p95: number; p99: number };
  /** CPU time of the whole process (the fake server's thread included) and of the main thread alone, in ms. */
  cpuMs: number;
  mainCpuMs?: number;
}

export interface StormFigures {
  cases: number;
  parallel: number;
  wallMs: number;
  answered: number;
  lost: number;
  requests: number;
  rateLimited: number;
  retries: number;
  maxRetriesOneCase: number;
}

interface RunFigures {
  wallMs: number;
  cpuMs: number;
  mainCpuMs?: number;
  passed: number;
  executions: Execution[];
  requests: number;
  rateLimited: number;
}

interface ServerStats {
  requests: number;
  rateLimited: number;
}

/**
 * The fake server runs in a worker thread, on its own event loop: in the same thread its HTTP work
 * would compete with the client's and the figures would measure both. This file is the worker too.
 */
export class FakeServerThread {
  private constructor(
    private readonly worker: Worker,
    readonly url: string,
  ) {}

  static async start(options: FakeLlmOptions): Promise<FakeServerThread> {
    // Node 20 workers do not inherit `--import tsx`, so the worker registers tsx before loading this file;
    // it resolves the packages as this thread does (the sources, or dist/ as the benches run them).
    const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); })`;
    const worker = new Worker(boot, {
      eval: true,
      execArgv: process.execArgv.filter((arg) => arg.startsWith('--conditions')),
      workerData: { fakeLlm: options },
    });
    const url = await new Promise<string>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    return new FakeServerThread(worker, url);
  }

  /**
   * What the server answered since it started or since the last `take()`; the requests it recorded
   * are let go. A server kept for several runs (warm, as a real one is) reports each run's own figures.
   */
  take(): Promise<ServerStats> {
    return this.ask('take');
  }

  async stop(): Promise<ServerStats> {
    const result = await this.ask('stop');
    await this.worker.terminate();
    return result;
  }

  private ask(message: 'take' | 'stop'): Promise<ServerStats> {
    const stats = new Promise<ServerStats>((resolve) => this.worker.once('message', resolve));
    this.worker.postMessage(message);
    return stats;
  }
}

async function serveInWorker(options: FakeLlmOptions): Promise<void> {
  const llm = await startFakeLlm(options);
  parentPort!.postMessage(llm.url);
  parentPort!.on('message', async (message: 'take' | 'stop') => {
    const stats: ServerStats = {
      requests: llm.requests.length,
      rateLimited: llm.requests.filter((r) => r.fault === 'status:429').length,
    };
    llm.requests.length = 0;
    if (message === 'stop') await llm.close();
    parentPort!.postMessage(stats);
  });
}

/** Writes `count` cases to a JSONL file and runs them against the fake server `llm`. */
async function runCases(
  dir: string,
  count: number,
  parallel: number,
  llm: FakeServerThread,
  retries = 3,
): Promise<RunFigures> {
  const file = join(dir, `cases-${count}.jsonl`);
  await writeFile(
    file,
    Array.from({ length: count }, (_, i) =>
      JSON.stringify({ id: `case-${i + 1}`, input: `Question number ${i + 1}?` }),
    ).join('\n') + '\n',
  );
  const executions: Execution[] = [];
  const collector: AgentestPlugin = {
    name: 'bench:collector',
    apply: ({ hooks }) =>
      hooks.report.tap(
        'bench:collector',
        (event) => void (event.type === 'run_result' && executions.push(event.execution)),
      ),
  };
  const kernel = createKernel({
    plugins: [
      jsonl(),
      agents({
        agents: { bench: { connector: 'fake' } },
        // `concurrency` matches --parallel so the connector's limit is not the bottleneck being measured.
        connectors: {
          fake: { type: 'openai', options: { host: llm.url, model: 'fake-model', concurrency: parallel, retries } },
        },
      }),
      collector,
    ],
  });
  const plan: RunPlan = {
    input: { input: file, cwd: dir },
    agent: { id: 'bench' },
    runs: 1,
    parallel,
    failFast: false,
    env: {},
    verbose: false,
  };
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const threadsBefore = threadTimes();
  const outcome = await kernel.run(plan);
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const threadsAfter = threadTimes();
  const stats = await llm.take();
  return {
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    ...(threadsAfter.has(process.pid)
      ? { mainCpuMs: usedBetween(threadsBefore, threadsAfter, [process.pid]).cpuMs }
      : {}),
    passed: outcome.summary.passed,
    executions,
    ...stats,
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** `calls` chat calls through one `openai` client to `llm`, `parallel` at a time, with no kernel around them. */
async function measureClientOnly(llm: FakeServerThread, calls: number, parallel: number): Promise<number> {
  const client = createChatClient('bench-client', {
    type: 'openai',
    options: { host: llm.url, model: 'fake-model', concurrency: parallel },
  });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < calls) {
        const i = ++next;
        await client.chat(
          { messages: [{ role: 'user', content: `Question number ${i}?` }] },
          new AbortController().signal,
        );
      }
    }),
  );
  const wallMs = performance.now() - started;
  await llm.take();
  return wallMs;
}

export async function measureThroughput(
  dir: string,
  llm: FakeServerThread,
  cases = 2000,
  parallel = 64,
  latencyMs = 50,
): Promise<ThroughputFigures> {
  // Recording is on (the stats count requests); a few thousand small records cost nothing measurable.
  const run = await runCases(dir, cases, parallel, llm);
  const durations = run.executions.map((e) => e.duration_ms).sort((a, b) => a - b);
  return {
    cases,
    parallel,
    latencyMs,
    wallMs: run.wallMs,
    idealMs: (cases * latencyMs) / parallel,
    passed: run.passed,
    durations: {
      mean: durations.reduce((a, b) => a + b, 0) / Math.max(1, durations.length),
      p50: percentile(durations, 50),
      p95: percentile(durations, 95),
      p99: percentile(durations, 99),
    },
    cpuMs: run.cpuMs,
    ...(run.mainCpuMs !== undefined ? { mainCpuMs: run.mainCpuMs } : {}),
  };
}

/**
 * Every third request is a 429 with `Retry-After: 1`. The server counts retries too, so a retry can
 * itself land on a multiple of three: each attempt fails with probability about ⅓. The connector's
 * default policy counts 429s apart from faults (10 rate-limit retries), so a case is lost only after
 * 11 rate limits in a row (about 3⁻¹¹ ≈ 6·10⁻⁶ per case).
 */
export async function measureStorm(dir: string, cases = 2000, parallel = 64, latencyMs = 50): Promise<StormFigures> {
  const llm = await FakeServerThread.start({
    latencyMs,
    default: 'OK',
    faults: [{ every: 3, fault: { type: 'status', status: 429, retryAfter: 1 } }],
  });
  let run: RunFigures;
  try {
    run = await runCases(dir, cases, parallel, llm);
  } finally {
    await llm.stop();
  }
  const retries = run.executions.map((e) => e.retries ?? 0);
  return {
    cases,
    parallel,
    wallMs: run.wallMs,
    answered: run.executions.filter((e) => e.status === 'passed').length,
    lost: cases - run.passed,
    requests: run.requests,
    rateLimited: run.rateLimited,
    retries: retries.reduce((a, b) => a + b, 0),
    maxRetriesOneCase: Math.max(0, ...retries),
  };
}

/**
 * Two threads share two cores with whatever else the machine runs, so one run can land on a busy
 * moment: the section reports the median of a few runs by wall time, and lists every run.
 */
const THROUGHPUT_RUNS = 3;

function median(runs: ThroughputFigures[]): ThroughputFigures {
  return [...runs].sort((a, b) => a.wallMs - b.wallMs)[Math.floor(runs.length / 2)]!;
}

const pct = (run: ThroughputFigures): string => `${((run.idealMs / run.wallMs) * 100).toFixed(1)} %`;
const ms = (value: number): string => `${value < 10 ? value.toFixed(2) : Math.round(value).toLocaleString('en-US')} ms`;

/** The throughput runs: the first ones after the warm-up, the settling ones, the steady ones. */
export interface ThroughputRuns {
  first: ThroughputFigures[];
  /** Whole-process CPU per case of each run between the first runs and the steady ones. */
  settling: number[];
  steady: ThroughputFigures[];
  /** The steady median's cases again, straight through the connector (no kernel, no loader). */
  clientOnlyMs: number;
}

const perCase = (run: ThroughputFigures, value: number | undefined): string =>
  value === undefined ? '–' : `${(value / run.cases).toFixed(2)} ms`;

/** The section `npm run bench` writes into bench/RESULTS.md. */
export function formatMarkdown(r: ThroughputRuns, s: StormFigures): string {
  const t = median(r.steady);
  const first = median(r.first);
  const overhead = t.wallMs - t.idealMs;
  const lane = (overhead * t.parallel) / t.cases;
  const every = (runs: ThroughputFigures[]) => runs.map((run) => `${ms(run.wallMs)} (${pct(run)})`).join(' · ');
  return [
    '## LLM throughput (fake server over HTTP)',
    '',
    `${t.cases.toLocaleString('en-US')} agent cases from a JSONL file, through \`@agentest/plugin-agent\` and the \`openai\` connector (official SDK over node:http), to \`@agentest/fake-llm\` (in a worker thread, one server for every run, warm as a real one is) answering after ${t.latencyMs} ms, at \`--parallel ${t.parallel}\`. The built packages run (\`dist/\`, as the CLI runs them). One 128-case warm-up, then ${r.first.length} first runs; then runs until the CPU per case stops falling (two runs in a row no more than 3 % under the least before them), then ${r.steady.length} steady runs. The table is the median steady run by wall time, which the target is judged on: a throughput bench measures the pace a long suite keeps, and V8 is still compiling the hot code during the first runs (on helper threads that take CPU from the same 2 cores). The first runs are shown beside it.`,
    '',
    '| figure | value |',
    '|---|---|',
    `| wall time (median steady run) | ${ms(t.wallMs)} |`,
    `| every steady run's wall time, in order | ${every(r.steady)} |`,
    `| ideal (cases × latency ÷ parallel) | ${ms(t.idealMs)} |`,
    `| wall ÷ ideal | ${(t.wallMs / t.idealMs).toFixed(3)} (${pct(t)} of ideal; target ≥ 90 %) ${t.idealMs / t.wallMs >= 0.9 ? '✅' : '❌'} |`,
    `| first runs after the warm-up: median wall, of ideal (every run) | ${ms(first.wallMs)}, ${pct(first)} (${every(r.first)}) |`,
    `| CPU per case, main thread / whole process (fake server included): steady median · first-runs median | ${perCase(t, t.mainCpuMs)} / ${perCase(t, t.cpuMs)} · ${perCase(first, first.mainCpuMs)} / ${perCase(first, first.cpuMs)} |`,
    `| whole-process CPU per case of each settling run, in order | ${r.settling.map((v) => `${v.toFixed(2)} ms`).join(' · ')} |`,
    `| overhead per case (lane time beyond the model's latency) | ${ms(lane)} |`,
    `| the same calls through the connector alone (no kernel, no loader) | ${ms(r.clientOnlyMs)} |`,
    `| throughput | ${Math.round(t.cases / (t.wallMs / 1000)).toLocaleString('en-US')} cases/s |`,
    `| case duration mean / p50 / p95 / p99 | ${ms(t.durations.mean)} / ${ms(t.durations.p50)} / ${ms(t.durations.p95)} / ${ms(t.durations.p99)} |`,
    `| passed | ${t.passed} / ${t.cases} |`,
    `| machine load (1-minute average, ${availableParallelism()} cores) at the end | ${loadavg()[0]!.toFixed(1)} |`,
    '',
    "Both ends share one machine: the fake server has its own thread, and whatever exceeds the ideal is the client side's CPU time (HTTP client, SDK, kernel) queuing on one event loop.",
    '',
    `### 429 storm: every third request is \`429\` with \`Retry-After: 1\``,
    '',
    `Same cases, parallelism and latency, with the connector's default retry policy (10 retries for 429s, counted apart from 3 for faults), honouring \`Retry-After\` (plus up to 10 % jitter).`,
    '',
    '| figure | value |',
    '|---|---|',
    `| wall time | ${ms(s.wallMs)} |`,
    `| cases answered | ${s.answered} / ${s.cases} |`,
    `| cases lost | ${s.lost} |`,
    `| requests served / of which 429 | ${s.requests.toLocaleString('en-US')} / ${s.rateLimited.toLocaleString('en-US')} |`,
    `| retries recorded on results (sum / most for one case) | ${s.retries.toLocaleString('en-US')} / ${s.maxRetriesOneCase} |`,
    `| every 429 retried exactly once | ${s.retries === s.rateLimited ? 'yes' : `no (${s.retries} retries for ${s.rateLimited} 429s)`} |`,
  ].join('\n');
}

async function measureRuns(dir: string): Promise<ThroughputRuns> {
  const llm = await FakeServerThread.start({ latencyMs: 50, default: 'OK' });
  try {
    console.error('warm-up (128 cases)…');
    await measureThroughput(dir, llm, 128, 64, 50);
    const first: ThroughputFigures[] = [];
    for (let run = 1; run <= THROUGHPUT_RUNS; run++) {
      console.error(`first run ${run}/${THROUGHPUT_RUNS} (2,000 cases, 50 ms, parallel 64)…`);
      first.push(await measureThroughput(dir, llm));
    }
    console.error('runs until the CPU per case stops falling…');
    const settling = await settle(async () => {
      const run = await measureThroughput(dir, llm);
      return run.cpuMs / run.cases;
    });
    const steady: ThroughputFigures[] = [];
    for (let run = 1; run <= THROUGHPUT_RUNS; run++) {
      console.error(`steady run ${run}/${THROUGHPUT_RUNS} (2,000 cases, 50 ms, parallel 64)…`);
      steady.push(await measureThroughput(dir, llm));
    }
    console.error('the same calls through the connector alone…');
    const clientOnlyMs = await measureClientOnly(llm, 2000, 64);
    return { first, settling, steady, clientOnlyMs };
  } finally {
    await llm.stop();
  }
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'agentest-bench-llm-'));
  try {
    const runs = await measureRuns(dir);
    console.error('429 storm (2,000 cases, every third request 429, Retry-After: 1)…');
    const storm = await measureStorm(dir);
    console.log(formatMarkdown(runs, storm));
    if (storm.lost > 0 || [...runs.first, ...runs.steady].some((run) => run.passed !== run.cases)) process.exitCode = 1;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (!isMainThread && (workerData as { fakeLlm?: FakeLlmOptions } | null)?.fakeLlm)
  await serveInWorker((workerData as { fakeLlm: FakeLlmOptions }).fakeLlm);
else if (
  isMainThread &&
  process.argv[1] &&
  import.meta.url === pathToFileURL(process.argv[1]).href &&
  !rerunOnDist(import.meta.url)
)
  await main();
