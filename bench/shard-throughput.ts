/**
 * Sharding on one machine's worth of model capacity: the same 1,000-case suite run by four shard
 * processes at `--parallel 16` each (started together, as four CI jobs would) against one process at
 * `--parallel 64`, every call answered by the fake server after 50 ms. Both sides are the built command
 * line (`packages/cli/dist/bin.js`) with a config agent on the `openai` connector, so each shard pays
 * its own start-up, as in CI. The figure is the slowest shard's wall time against the single run's.
 *
 * Prints one Markdown section on stdout (collected by `npm run bench`); progress goes to stderr.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FakeServerThread } from './llm-throughput.js';

const CASES = 1_000;
const SHARDS = 4;
const SHARD_PARALLEL = 16;
const SINGLE_PARALLEL = SHARD_PARALLEL * SHARDS;
const LATENCY_MS = 50;
const ROUNDS = 3;
const TARGET = 0.1;
const BIN = fileURLToPath(new URL('../packages/cli/dist/bin.js', import.meta.url));

/** One process: its wall time from spawn to exit, and the run's own time as its summary records it. */
interface ProcessFigures {
  wallMs: number;
  runMs: number;
  cases: number;
  passed: number;
}

/** One round: the single run, and the shards that ran together. */
interface Round {
  single: ProcessFigures;
  shards: ProcessFigures[];
  /** Which side ran first in this round (they alternate). */
  first: 'single' | 'shards';
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

/** Runs `agentest test` once; `shard` is `i/N` or undefined for the whole suite. */
function runCli(dir: string, name: string, parallel: number, shard?: string): Promise<ProcessFigures> {
  const output = join(dir, `${name}.jsonl`);
  const args = ['test', '-i', 'cases.jsonl', '-n', 'bench', '--parallel', String(parallel), '-o', output];
  if (shard) args.push('--shard', shard, '--run-id', name.replace(/-\d+$/, ''));
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], {
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
      summaryOf(output).then((summary) => resolve({ wallMs, ...summary }), reject);
    });
  });
}

async function summaryOf(file: string): Promise<Omit<ProcessFigures, 'wallMs'>> {
  const lines = (await readFile(file, 'utf8')).trim().split('\n');
  const summary = JSON.parse(lines.at(-1)!) as { type: string; duration_ms: number; total: number; passed: number };
  if (summary.type !== 'summary') throw new Error(`${file} has no summary: the run did not finish`);
  return { runMs: summary.duration_ms, cases: summary.total, passed: summary.passed };
}

const single = (dir: string, round: number) => runCli(dir, `single-${round}`, SINGLE_PARALLEL);
const shards = (dir: string, round: number) =>
  Promise.all(
    Array.from({ length: SHARDS }, (_, i) =>
      runCli(dir, `shards-${round}-${i + 1}`, SHARD_PARALLEL, `${i + 1}/${SHARDS}`),
    ),
  );

async function runRound(dir: string, round: number): Promise<Round> {
  // Alternate which side goes first, so that a machine warming up or slowing down favours neither.
  if (round % 2 === 1) {
    const one = await single(dir, round);
    return { single: one, shards: await shards(dir, round), first: 'single' };
  }
  const parts = await shards(dir, round);
  return { single: await single(dir, round), shards: parts, first: 'shards' };
}

const ms = (value: number): string => `${Math.round(value).toLocaleString('en-US')} ms`;
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const slowest = (parts: ProcessFigures[], key: 'wallMs' | 'runMs') => Math.max(...parts.map((p) => p[key]));

function formatMarkdown(rounds: Round[], load: { before: number; after: number }): string {
  const singleWall = median(rounds.map((r) => r.single.wallMs));
  const shardWall = median(rounds.map((r) => slowest(r.shards, 'wallMs')));
  const singleRun = median(rounds.map((r) => r.single.runMs));
  const shardRun = median(rounds.map((r) => slowest(r.shards, 'runMs')));
  const ratio = shardWall / singleWall;
  const runRatio = shardRun / singleRun;
  const verdict = (value: number) => `${((value - 1) * 100).toFixed(1)} % ${value <= 1 + TARGET ? '✅' : '❌'}`;
  const sizes = rounds[0]!.shards.map((p) => p.cases).join(' + ');
  const ideal = (CASES * LATENCY_MS) / SINGLE_PARALLEL;
  return [
    '## Shard throughput: 4 shards × `--parallel 16` against 1 process × `--parallel 64`',
    '',
    `${CASES} JSONL cases (a config agent on the \`openai\` connector, one \`contains\` assertion each), \`@agentest/fake-llm\` in a worker thread answering every call after ${LATENCY_MS} ms. Each side is the built command line, started as a process: the single run with \`--parallel ${SINGLE_PARALLEL}\`, and ${SHARDS} shard processes started together with \`--shard i/${SHARDS} --parallel ${SHARD_PARALLEL}\` (hash split: ${sizes} cases), each writing its report and blob. ${ROUNDS} rounds, the side that goes first alternating; the figures are medians over the rounds. Wall time is from spawn to exit (start-up included, as a CI job pays it); run time is the run's own, from its summary.`,
    '',
    '| figure | single process | slowest of 4 shards | shards ÷ single (target ≤ +10 %) |',
    '|---|---|---|---|',
    `| wall time, spawn to exit (median) | ${ms(singleWall)} | ${ms(shardWall)} | ${verdict(ratio)} |`,
    `| run time, start to summary (median) | ${ms(singleRun)} | ${ms(shardRun)} | ${verdict(runRatio)} |`,
    `| every round's wall time (first side in bold) | ${rounds.map((r) => (r.first === 'single' ? `**${ms(r.single.wallMs)}**` : ms(r.single.wallMs))).join(' · ')} | ${rounds.map((r) => (r.first === 'shards' ? `**${ms(slowest(r.shards, 'wallMs'))}**` : ms(slowest(r.shards, 'wallMs')))).join(' · ')} | |`,
    `| ideal run time: ${CASES} × ${LATENCY_MS} ms ÷ ${SINGLE_PARALLEL} | ${ms(ideal)} | ${ms(ideal * (Math.max(...rounds[0]!.shards.map((p) => p.cases)) / (CASES / SHARDS)))} (the largest shard's share) | |`,
    `| passed | ${rounds.map((r) => r.single.passed).join(' · ')} | ${rounds.map((r) => r.shards.reduce((n, p) => n + p.passed, 0)).join(' · ')} (all shards) | |`,
    `| machine load (1-minute average, ${availableParallelism()} cores) before · after | ${load.before.toFixed(1)} · ${load.after.toFixed(1)} | | |`,
    '',
    `The shards ask the server for as many calls at once as the single process (${SHARDS} × ${SHARD_PARALLEL} = ${SINGLE_PARALLEL}), so with one server and one key they cannot be faster: what they add is ${SHARDS} start-ups instead of one, on the same cores, and a hash split whose largest shard holds more than a quarter of the cases. On separate CI machines the start-ups run side by side and the largest shard sets the pace.`,
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
      console.error(`round ${round}/${ROUNDS} (${round % 2 === 1 ? 'single first' : 'shards first'})…`);
      rounds.push(await runRound(dir, round));
    }
    console.log(formatMarkdown(rounds, { before, after: loadavg()[0]! }));
    const complete = rounds.every(
      (r) => r.single.passed === CASES && r.shards.reduce((n, p) => n + p.passed, 0) === CASES,
    );
    if (!complete) process.exitCode = 1;
  } finally {
    await llm.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
