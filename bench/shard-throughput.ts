/**
 * Sharding against one process, at the same model capacity: the same suite run by four shard processes
 * at `--parallel 16` each against one process at `--parallel 64`, every call answered by the fake server
 * after 50 ms. Every side is the built command line (`packages/cli/dist/bin.js`) with a config agent on
 * the `openai` connector, so each shard pays its own start-up, as in CI.
 *
 * Four shards are meant for four machines. This machine has few cores, so the shards are measured two
 * ways: started together (four processes sharing its cores, what one machine can show) and each alone,
 * one after the other (what four CI machines see: each shard has the machine to itself). The target is
 * about the second: the slowest shard alone against the single run. Every process's wall time (spawn to
 * exit), run time (the summary's `duration_ms`, start-up excluded) and CPU time is in the table.
 *
 * Prints one Markdown section on stdout (collected by `npm run bench`); progress goes to stderr.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FakeServerThread } from './llm-throughput.js';

/** Enough cases that a run lasts several times a process's start-up (about 1 s here). */
const CASES = Number(process.env.BENCH_SHARD_CASES ?? 4_000);
const SHARDS = 4;
const SHARD_PARALLEL = 16;
const SINGLE_PARALLEL = SHARD_PARALLEL * SHARDS;
const LATENCY_MS = 50;
const ROUNDS = Number(process.env.BENCH_REPEATS ?? 3);
const TARGET = 0.1;
const BIN = fileURLToPath(new URL('../packages/cli/dist/bin.js', import.meta.url));

/** One process: wall time from spawn to exit, the run's own time from its summary, and its CPU time. */
interface ProcessFigures {
  wallMs: number;
  runMs: number;
  cpuMs: number;
  cases: number;
  passed: number;
}

/** One round: the single run, the shards started together, and the shards run one after the other. */
interface Round {
  single: ProcessFigures;
  together: ProcessFigures[];
  alone: ProcessFigures[];
}

/** The suite and a config whose agent `bench` is the `openai` connector on the fake server. */
async function writeProject(dir: string, url: string): Promise<void> {
  const lines = Array.from({ length: CASES }, (_, i) =>
    JSON.stringify({ id: `case-${i + 1}`, input: `Question ${i + 1}?`, assert: { type: 'contains', value: 'Paris' } }),
  );
  await writeFile(join(dir, 'cases.jsonl'), `${lines.join('\n')}\n`);
  // The connector allows what the single run asks at once, so its limit is not what is measured.
  const config = {
    agents: { bench: { connector: 'fake' } },
    connectors: { fake: { type: 'openai', model: 'fake-model', host: url, retries: 0, concurrency: SINGLE_PARALLEL } },
  };
  await writeFile(join(dir, 'agentest.config.json'), JSON.stringify(config, null, 2));
}

/** Runs `agentest test` once under `/usr/bin/time`; `shard` is `i/N` or undefined for the whole suite. */
function runCli(dir: string, name: string, parallel: number, shard?: string): Promise<ProcessFigures> {
  const output = join(dir, `${name}.jsonl`);
  const times = join(dir, `${name}.time`);
  const args = ['test', '-i', 'cases.jsonl', '-n', 'bench', '--parallel', String(parallel), '-o', output];
  if (shard) args.push('--shard', shard, '--run-id', name.replace(/-\d+$/, ''));
  const started = performance.now();
  const child = spawn('/usr/bin/time', ['-o', times, '-f', '%U %S', process.execPath, BIN, ...args], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1', CI: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const wallMs = performance.now() - started;
      if (code !== 0) return reject(new Error(`${name} exited ${code}: ${stderr.slice(-2000)}`));
      Promise.all([summaryOf(output), cpuOf(times)]).then(
        ([summary, cpuMs]) => resolve({ wallMs, cpuMs, ...summary }),
        reject,
      );
    });
  });
}

async function summaryOf(file: string): Promise<Omit<ProcessFigures, 'wallMs' | 'cpuMs'>> {
  const lines = (await readFile(file, 'utf8')).trim().split('\n');
  const summary = JSON.parse(lines.at(-1)!) as { type: string; duration_ms: number; total: number; passed: number };
  if (summary.type !== 'summary') throw new Error(`${file} has no summary: the run did not finish`);
  return { runMs: summary.duration_ms, cases: summary.total, passed: summary.passed };
}

/** User + system seconds as `/usr/bin/time -f '%U %S'` wrote them, in ms. */
async function cpuOf(file: string): Promise<number> {
  const [user, system] = (await readFile(file, 'utf8')).trim().split('\n').at(-1)!.split(' ').map(Number);
  return (user! + system!) * 1000;
}

const shardName = (i: number) => `${i + 1}/${SHARDS}`;
const single = (dir: string, round: number) => runCli(dir, `single-${round}`, SINGLE_PARALLEL);
const together = (dir: string, round: number) =>
  Promise.all(
    Array.from({ length: SHARDS }, (_, i) => runCli(dir, `together-${round}-${i + 1}`, SHARD_PARALLEL, shardName(i))),
  );

/** Each shard with the machine to itself, as on its own CI machine: one after the other. */
async function alone(dir: string, round: number): Promise<ProcessFigures[]> {
  const parts: ProcessFigures[] = [];
  for (let i = 0; i < SHARDS; i++)
    parts.push(await runCli(dir, `alone-${round}-${i + 1}`, SHARD_PARALLEL, shardName(i)));
  return parts;
}

async function runRound(dir: string, round: number): Promise<Round> {
  // The order turns each round, so that a machine warming up or slowing down favours no side.
  const sides = [
    async (r: Partial<Round>) => void (r.single = await single(dir, round)),
    async (r: Partial<Round>) => void (r.together = await together(dir, round)),
    async (r: Partial<Round>) => void (r.alone = await alone(dir, round)),
  ];
  const result: Partial<Round> = {};
  for (let i = 0; i < sides.length; i++) await sides[(i + round) % sides.length]!(result);
  return result as Round;
}

const ms = (value: number): string => `${Math.round(value).toLocaleString('en-US')} ms`;
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const slowest = (parts: ProcessFigures[], key: 'wallMs' | 'runMs') => Math.max(...parts.map((p) => p[key]));
const verdict = (value: number) =>
  `${value >= 1 ? '+' : ''}${((value - 1) * 100).toFixed(1)} % ${value <= 1 + TARGET ? '✅' : '❌'}`;
const figures = (p: ProcessFigures) => `${ms(p.wallMs)} / ${ms(p.runMs)} / ${ms(p.cpuMs)}`;

/** One row per process of every round: wall / run / CPU. */
function everyProcess(rounds: Round[]): string[] {
  const rows = ['| round | process | cases | wall / run / CPU |', '|---|---|---|---|'];
  rounds.forEach((round, r) => {
    rows.push(
      `| ${r + 1} | single, \`--parallel ${SINGLE_PARALLEL}\` | ${round.single.cases} | ${figures(round.single)} |`,
    );
    round.together.forEach((p, i) =>
      rows.push(`| ${r + 1} | shard ${shardName(i)}, started together | ${p.cases} | ${figures(p)} |`),
    );
    round.alone.forEach((p, i) =>
      rows.push(`| ${r + 1} | shard ${shardName(i)}, alone | ${p.cases} | ${figures(p)} |`),
    );
  });
  return rows;
}

/** A machine busier than its cores measures waiting for them: said plainly above the figures' reading. */
function starved(load: { before: number; after: number }): string[] {
  const cores = availableParallelism();
  const busiest = Math.max(load.before, load.after);
  if (busiest <= cores) return [];
  return [
    `**Measured at a load average of ${busiest.toFixed(1)} on ${cores} cores**: every process waited for a core most of its time (run times far above the ideal), so these figures show how the sides share a starved machine, not what sharding costs, and the ✅ / ❌ above are no evidence either way; the target needs a run on a quiet machine.`,
    '',
  ];
}

function formatMarkdown(rounds: Round[], load: { before: number; after: number }): string {
  const med = (pick: (r: Round) => number) => median(rounds.map(pick));
  const single = { wall: med((r) => r.single.wallMs), run: med((r) => r.single.runMs) };
  const alone = { wall: med((r) => slowest(r.alone, 'wallMs')), run: med((r) => slowest(r.alone, 'runMs')) };
  const together = { wall: med((r) => slowest(r.together, 'wallMs')), run: med((r) => slowest(r.together, 'runMs')) };
  const cpu = {
    single: med((r) => r.single.cpuMs),
    shards: med((r) => r.alone.reduce((n, p) => n + p.cpuMs, 0)),
  };
  const sizes = rounds[0]!.alone.map((p) => p.cases).join(' + ');
  const ideal = (CASES * LATENCY_MS) / SINGLE_PARALLEL;
  const largest = Math.max(...rounds[0]!.alone.map((p) => p.cases));
  const passed = rounds.map((r) => [r.single, ...r.together, ...r.alone].reduce((n, p) => n + p.passed, 0));
  return [
    '## Shard throughput: 4 shards × `--parallel 16` against 1 process × `--parallel 64`',
    '',
    `${CASES.toLocaleString('en-US')} JSONL cases (a config agent on the \`openai\` connector, one \`contains\` assertion each), \`@agentest/fake-llm\` in a worker thread of the bench answering every call after ${LATENCY_MS} ms. Every side is the built command line, started as a process: the single run with \`--parallel ${SINGLE_PARALLEL}\`; the ${SHARDS} shards (\`--shard i/${SHARDS} --parallel ${SHARD_PARALLEL}\`, hash split: ${sizes} cases, each writing its report and blob) once **alone**, one after the other, no other shard running (as on its own CI machine; other work on this shared machine still runs), and once **together**, four processes started at once on this machine's ${availableParallelism()} cores. ${ROUNDS} rounds, the order of the three sides turning each round; the summary figures are medians over the rounds. Wall time is from spawn to exit (start-up included, as a CI job pays it); run time is the run's own, from its summary's \`duration_ms\` (start-up excluded); CPU time is the process's user + system time.`,
    '',
    '| figure | single process | slowest shard, alone (4 machines) | shards ÷ single (target ≤ +10 %) | slowest shard, together (1 machine) | together ÷ single |',
    '|---|---|---|---|---|---|',
    `| wall time, spawn to exit (median) | ${ms(single.wall)} | ${ms(alone.wall)} | ${verdict(alone.wall / single.wall)} | ${ms(together.wall)} | ${verdict(together.wall / single.wall)} |`,
    `| run time, start to summary (median) | ${ms(single.run)} | ${ms(alone.run)} | ${verdict(alone.run / single.run)} | ${ms(together.run)} | ${verdict(together.run / single.run)} |`,
    `| ideal run time: cases × ${LATENCY_MS} ms ÷ parallel | ${ms(ideal)} | ${ms((largest * LATENCY_MS) / SHARD_PARALLEL)} (the largest shard) | | | |`,
    `| CPU time (median): the single run · the four shards' sum | ${ms(cpu.single)} | ${ms(cpu.shards)} | | | |`,
    `| passed, every process of each round (single + together + alone) | ${passed.join(' · ')} of ${CASES * 3} | | | | |`,
    `| machine load (1-minute average, ${availableParallelism()} cores) before · after | ${load.before.toFixed(1)} · ${load.after.toFixed(1)} | | | | |`,
    '',
    'Every process, wall / run / CPU time:',
    '',
    ...everyProcess(rounds),
    '',
    ...starved(load),
    `What this machine can and cannot show. The shards ask the server for as many calls at once as the single process (${SHARDS} × ${SHARD_PARALLEL} = ${SINGLE_PARALLEL}), so with one server and one key they cannot be faster than it; sharding pays when each machine brings its own capacity (keys, rate limits, CPU). A shard alone runs with no other shard beside it, as on a CI machine of its own, so *alone* is the figure the target is about; its wall time still includes a start-up of its own (each CI job pays one), and the hash split's largest shard holds more than a quarter of the cases and sets the pace. *Together* is four processes with their start-ups and their CPU work on ${availableParallelism()} cores (and the fake server's thread besides): it measures this machine's cores, not sharding, and is shown so that no measurement is left out. The run time (start-up excluded) tells the two costs apart.`,
  ].join('\n');
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'agentest-bench-shards-'));
  const llm = await FakeServerThread.start({ latencyMs: LATENCY_MS, default: 'Paris.' });
  try {
    await writeProject(dir, llm.url);
    const before = loadavg()[0]!;
    console.error('warm-up (one single run)…');
    await single(dir, 0);
    const rounds: Round[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      console.error(`round ${round}/${ROUNDS}…`);
      rounds.push(await runRound(dir, round));
    }
    console.log(formatMarkdown(rounds, { before, after: loadavg()[0]! }));
    const complete = rounds.every((r) =>
      [[r.single], r.together, r.alone].every((side) => side.reduce((n, p) => n + p.passed, 0) === CASES),
    );
    if (!complete) process.exitCode = 1;
  } finally {
    await llm.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
