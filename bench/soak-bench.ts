/**
 * Soak: 100,000 agent cases at `--parallel 64` through the real CLI (a child process) against the fake
 * LLM server with 1 % injected faults. Checks that every case is accounted for exactly once in the
 * `.jsonl` stream, and samples the CLI's resident memory over the run to show it stays flat.
 *
 * Prints one Markdown section on stdout (collected by `npm run bench`); progress goes to stderr.
 * `SOAK_CASES=20000 node --import tsx --conditions=@agentest/source bench/soak-bench.ts` runs a smaller soak.
 */
import { spawn } from 'node:child_process';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startFakeLlm } from '@agentest/fake-llm';

const CASES = Number(process.env.SOAK_CASES ?? 100_000);
const PARALLEL = 64;
const SAMPLE_MS = 500;
const BIN = fileURLToPath(new URL('../packages/cli/src/bin.ts', import.meta.url));

interface Sample {
  atMs: number;
  rssMb: number;
  done: number;
}

/** Resident memory of a process, from /proc (Linux); undefined elsewhere or once it has exited. */
function rssMb(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** `result` lines written so far, counted from the bytes appended since the last look. */
function resultCounter(path: string): () => number {
  let offset = 0;
  let count = 0;
  let tail = '';
  return () => {
    if (!existsSync(path)) return count;
    const buffer = readFileSync(path);
    const text = tail + buffer.subarray(offset).toString('utf8');
    offset = buffer.length;
    const lines = text.split('\n');
    tail = lines.pop() ?? '';
    for (const line of lines) if (line.startsWith('{"type":"result"')) count++;
    return count;
  };
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'agentest-soak-'));
  // 1 % of requests fail: a 503 (retried, so its case usually passes) and a malformed body (an error).
  const llm = await startFakeLlm({
    echo: true,
    record: false,
    latencyMs: 2,
    faults: [
      { every: 200, fault: 503 },
      { every: 200, offset: 100, fault: 'malformed' },
    ],
  });
  try {
    await writeSuite(dir, llm.url);

    const out = join(dir, 'out.jsonl');
    const { code, wallMs, samples, stderr } = await runSampled(dir, out);

    const tally = await account(out);
    const figures = { code, wallMs, samples, tally };
    process.stdout.write(markdown(figures));
    if (code !== 0 && code !== 1) process.stderr.write(`CLI exited with ${code}:\n${stderr}\n`);
    if (tally.missing || tally.duplicates || tally.invalidLines || !tally.summary) process.exitCode = 1;
  } finally {
    await llm.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The suite in `dir`: a config whose agent talks to the fake server at `url`, and CASES echo cases. */
async function writeSuite(dir: string, url: string): Promise<void> {
  await writeFile(
    join(dir, 'agentest.config.json'),
    JSON.stringify({
      agents: { bot: { connector: 'fake' } },
      connectors: {
        fake: {
          type: 'openai',
          model: 'fake-model',
          host: url,
          retries: 2,
          backoff_ms: 5,
          concurrency: PARALLEL,
        },
      },
    }),
  );
  const lines: string[] = [];
  for (let i = 1; i <= CASES; i++)
    lines.push(
      JSON.stringify({ id: `S${i}`, input: `soak message ${i}`, assert: { type: 'contains', value: `${i}` } }),
    );
  await writeFile(join(dir, 'cases.jsonl'), `${lines.join('\n')}\n`);
  lines.length = 0;
}

/** Runs the CLI on the suite in `dir`, sampling its RSS and the results written so far every SAMPLE_MS. */
async function runSampled(dir: string, out: string) {
  const started = Date.now();
  const child = spawn(
    process.execPath,
    [
      '--import',
      import.meta.resolve('tsx'),
      '--conditions=@agentest/source',
      BIN,
      'test',
      '-i',
      'cases.jsonl',
      '-n',
      'bot',
      '-o',
      'out.jsonl',
      '--parallel',
      String(PARALLEL),
    ],
    {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1', DEBUG: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));

  const samples: Sample[] = [];
  const done = resultCounter(out);
  const timer = setInterval(() => {
    const rss = rssMb(child.pid!);
    if (rss === undefined) return;
    samples.push({ atMs: Date.now() - started, rssMb: rss, done: done() });
    const last = samples.at(-1)!;
    if (samples.length % 20 === 0)
      process.stderr.write(
        `  ${(last.atMs / 1000).toFixed(0)}s: ${last.done}/${CASES} cases, RSS ${last.rssMb.toFixed(0)} MB\n`,
      );
  }, SAMPLE_MS);
  const code = await exited;
  clearInterval(timer);
  const wallMs = Date.now() - started;
  return { code, wallMs, samples, stderr };
}

interface Tally {
  results: number;
  duplicates: number;
  missing: number;
  invalidLines: number;
  statuses: Record<string, number>;
  summary?: { total: number; passed: number; errors: number; failed: number; timeouts: number };
}

/** Reads the stream line by line: each id once, every line valid JSON, the summary last. */
async function account(path: string): Promise<Tally> {
  const seen = new Set<string>();
  const tally: Tally = { results: 0, duplicates: 0, missing: 0, invalidLines: 0, statuses: {} };
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    let event: {
      type: string;
      id?: string;
      status?: string;
      total?: number;
      passed?: number;
      errors?: number;
      failed?: number;
      timeouts?: number;
    };
    try {
      event = JSON.parse(line);
    } catch {
      tally.invalidLines++;
      continue;
    }
    if (event.type === 'result') {
      tally.results++;
      if (seen.has(event.id!)) tally.duplicates++;
      seen.add(event.id!);
      tally.statuses[event.status!] = (tally.statuses[event.status!] ?? 0) + 1;
    } else if (event.type === 'summary') {
      tally.summary = {
        total: event.total!,
        passed: event.passed!,
        errors: event.errors!,
        failed: event.failed!,
        timeouts: event.timeouts!,
      };
    }
  }
  for (let i = 1; i <= CASES; i++) if (!seen.has(`S${i}`)) tally.missing++;
  return tally;
}

function markdown({
  code,
  wallMs,
  samples,
  tally,
}: {
  code: number | null;
  wallMs: number;
  samples: Sample[];
  tally: Tally;
}): string {
  const at = (fraction: number) => samples.find((s) => s.done >= CASES * fraction) ?? samples.at(-1);
  const start = at(0.05);
  const mid = at(0.5);
  const end = samples.filter((s) => s.done < CASES).at(-1) ?? samples.at(-1);
  const peak = Math.max(...samples.map((s) => s.rssMb));
  const row = (label: string, s: Sample | undefined) =>
    `| ${label} | ${s ? `${(s.atMs / 1000).toFixed(1)} s` : '–'} | ${s?.done ?? '–'} | ${s ? s.rssMb.toFixed(0) : '–'} MB |`;
  const ok =
    tally.missing === 0 && tally.duplicates === 0 && tally.invalidLines === 0 && tally.summary?.total === CASES;
  return [
    '## Soak: 100k cases, parallel 64, 1 % faults',
    '',
    `${CASES.toLocaleString('en')} agent cases through the CLI (\`--parallel ${PARALLEL}\`, connector retries 2) against the fake LLM with`,
    'a 503 on every 200th request and a malformed body on every 200th (offset 100): 1 % of requests fail.',
    '',
    `- Exit code ${code}; wall time ${(wallMs / 1000).toFixed(1)} s (${Math.round(CASES / (wallMs / 1000))} cases/s).`,
    `- Accounted for: ${tally.results.toLocaleString('en')} result lines, ${tally.missing} missing, ${tally.duplicates} duplicated, ${tally.invalidLines} invalid lines; summary total ${tally.summary?.total ?? 'missing'}. ${ok ? '**Every case exactly once.**' : '**Cases lost or duplicated.**'}`,
    `- Statuses: ${Object.entries(tally.statuses)
      .map(([s, n]) => `${s} ${n}`)
      .join(', ')}.`,
    '',
    '| point | time | cases done | CLI RSS |',
    '|---|---|---|---|',
    row('start (5 % done)', start),
    row('mid (50 % done)', mid),
    row('end (last sample before the summary)', end),
    `| peak | | | ${peak.toFixed(0)} MB |`,
    '',
    `RSS sampled every ${SAMPLE_MS} ms from /proc (${samples.length} samples). Growth from start to end: ${start && end ? `${(end.rssMb - start.rssMb).toFixed(0)} MB` : '–'}.`,
    '',
  ].join('\n');
}

await main();
