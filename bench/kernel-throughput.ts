/**
 * Kernel throughput: JSONL suites of 10k, 100k and 1M cases against the `echo` agent, three
 * assertions per case (contains, regex, json_path), JSONL output, through the real CLI and plugins.
 * Each run is a child process so its peak RSS can be read; a hand-written floor (stream the file,
 * JSON.parse, the same three checks, one line out per case) runs the same way for comparison.
 * Prints a Markdown section. `--floor <in> <out>` runs the floor itself.
 */
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  openSync,
  readSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const data = join(root, 'bench', '.data');
const SIZES = (process.env.BENCH_SIZES ?? '10000,100000,1000000').split(',').map(Number);
const PARALLEL = 16;
/** Runs per side and size; the median is reported. */
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);

if (process.argv[2] === '--floor') await floor(process.argv[3]!, process.argv[4]!);
else main();

function main(): void {
  const load = [loadavg()[0]!];
  mkdirSync(data, { recursive: true });
  build();
  const rows: string[] = [];
  const measured: Record<number, { cli: Measure; floor: Measure }> = {};
  for (const n of SIZES) {
    const { cliRun, floorRun, row } = measureSize(n);
    measured[n] = { cli: cliRun, floor: floorRun };
    rows.push(row);
  }
  const checks = targets(measured);
  load.push(loadavg()[0]!);
  console.log(`## Kernel throughput (CLI, echo agent, 3 assertions per case, JSONL output)

\`agentest test -i cases-N.jsonl -n echo -o out.jsonl --parallel ${PARALLEL}\` as a child process, the built CLI as users run it
(\`tsc -b\` first, then \`node packages/cli/dist/bin.js\`), stdout to /dev/null (the console reporter still formats every line). Cases/s is cases over the run's own duration (the summary's
\`duration_ms\`, start-up excluded); RSS is the child's peak (\`/usr/bin/time -v\`). Each side runs ${REPEATS} times, the two
sides alternating (the machine is shared, so a busy moment slows both); the table shows the **median** run, every run's
cases/s in order, and the highest RSS of the runs. CPU time is the median run's user + system time, its process's
start-up included (agentest's CLI loads its plugins, the floor loads tsx): a loaded machine stretches the wall time
much more than the CPU time. The floor is a plain loop in its own process: stream the file line by
line, \`JSON.parse\`, contains + regex + JSON field check, one line out per case.

| cases | agentest cases/s (median) | every run | run time | CPU time | peak RSS | floor cases/s (median) | every floor run | floor CPU time | floor peak RSS | floor / agentest | CPU agentest / floor |
|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${rows.join('\n')}

Targets:
${checks.join('\n')}

Machine load (1-minute average, 2 cores): ${load.map((l) => l.toFixed(1)).join(' at the start, ')} at the end.

Where agentest's time goes beyond the floor's (CPU profile of one 100k run, in a project of its own, start-up left out,
2026-12-02, on a machine at load 30, which inflates the share of file writes): \`JSON.parse\` 10 % (each case line once,
and each output once for \`json_path\`, as the floor does); \`JSON.stringify\` of the \`result\` lines 8 % (the whole
record, about 620 bytes against the floor's 160; \`case_start\` lines are written directly); garbage collection 7 %;
writing the JSONL file and the history record about 12 %; the history's own per-case work 5 % (its record entries are
written directly, not through \`JSON.stringify\`); the rest is spread over the plugin layers (three assertion taps, the
RE2 regex among them, two reporters, the console line). The file is read and checked once before any agent is called;
a file of up to 32 MiB keeps the cases that pass built and the run hands them out, so the run parses nothing again
(larger files are parsed again, in constant memory). A case whose steps all answer at once (the echo agent, whose runs
the executor answers itself, synchronous assertions and reporters) runs without a promise per step: 2 promises per case
in the run loop, where there were 10 (\`packages/kernel/test/sync-path.test.ts\`). No \`AbortSignal\` and no test
context are made per case: the echo agent reads neither, and the suite's Before/After hooks are skipped for cases that
name none.

Where the memory goes: start-up (Node, the modules and the plugins: a run of 20 cases peaks at 85 MB) and the parallel
lanes' working set and garbage not yet collected; nothing is kept per case for the length of the run (the cases a
small file's checking pass keeps, about 55 MB at 100k, are let go as the run hands them out). The run history
writes its record to a temporary file as cases end (at most two 16 KB chunks in memory) and renames it into place at the
summary; at 1M cases the record (about 100 MB) is more than \`history.maxBytes\` (20 MB), so it is dropped with a
warning, as before. What is still held per case is small or bounded: the first pass's duplicate-id table (a 4-byte
fingerprint per id, 8 MB at 1M cases, given back before the cases run); the flaky cases the summary lists (only cases
whose outcome flipped); the console's failure recap (the first 50 failed cases, the rest counted); the snapshot plugin
(only cases that did not run to their assertions); and a suite lifecycle's \`afterAll\`, which is given every result
(only suites that define one). \`packages/history/test/record-streaming.test.ts\` fails if the history's per-case
retention comes back. Each run starts in an empty project (\`bench/.data/project\`) with the suite linked into it: the
CLI searches for its config from the suite's folder, and from \`bench/.data\` it found the repository's own config and
read the 10 MB history records the earlier runs of the bench had written there.`);
}

/** Both sides at `n` cases, REPEATS times each, alternating; the median run of each and its table row. */
function measureSize(n: number): { cliRun: Measure; floorRun: Measure; row: string } {
  const input = suite(n);
  const cliArgs = [
    join(root, 'packages/cli/dist/bin.js'),
    'test',
    '-i',
    basename(input),
    '-n',
    'echo',
    '-o',
    join(data, `out-${n}.jsonl`),
    '--parallel',
    String(PARALLEL),
  ];
  // The machine is shared: each side runs REPEATS times, alternating with the other so that a busy
  // moment slows both, and the median run is kept (with the highest RSS seen in any run).
  const floorRuns: Measure[] = [];
  const cliRuns: Measure[] = [];
  for (let i = 0; i < REPEATS; i++) {
    floorRuns.push(
      measure([fileURLToPath(import.meta.url), '--floor', input, join(data, `floor-${n}.jsonl`)], n, true),
    );
    cliRuns.push(measure(cliArgs, n, false, emptyProject(input)));
  }
  const floorRun = median(floorRuns);
  const cliRun = median(cliRuns);
  const row = `| ${n.toLocaleString('en')} | ${fmt(cliRun.casesPerSecond)} | ${cliRuns.map((r) => fmt(r.casesPerSecond)).join(' · ')} | ${(cliRun.runMs / 1000).toFixed(1)} s | ${seconds(cliRun.cpuS)} | ${mb(cliRun.rssKb)} | ${fmt(floorRun.casesPerSecond)} | ${floorRuns.map((r) => fmt(r.casesPerSecond)).join(' · ')} | ${seconds(floorRun.cpuS)} | ${mb(floorRun.rssKb)} | ${(floorRun.casesPerSecond / cliRun.casesPerSecond).toFixed(2)}× | ${(cliRun.cpuS / floorRun.cpuS).toFixed(2)}× |`;
  return { cliRun, floorRun, row };
}

/** The throughput and memory targets, met or missed, for the sizes that were measured. */
function targets(measured: Record<number, { cli: Measure; floor: Measure }>): string[] {
  const at100k = measured[100_000];
  const at1m = measured[1_000_000];
  return [
    at100k
      ? `- ≥25,000 cases/s at 100k: **${fmt(at100k.cli.casesPerSecond)}** → ${at100k.cli.casesPerSecond >= 25_000 ? 'met' : 'missed'}`
      : '',
    at100k
      ? `- within 3× of the floor at 100k: **${(at100k.floor.casesPerSecond / at100k.cli.casesPerSecond).toFixed(2)}×** → ${at100k.floor.casesPerSecond / at100k.cli.casesPerSecond <= 3 ? 'met' : 'missed'}`
      : '',
    at100k && at1m
      ? `- peak RSS at 1M within 1.2× of 100k: **${(at1m.cli.rssKb / at100k.cli.rssKb).toFixed(2)}×** (${mb(at1m.cli.rssKb)} vs ${mb(at100k.cli.rssKb)}) → ${at1m.cli.rssKb / at100k.cli.rssKb <= 1.2 ? 'met' : 'missed'}`
      : '',
  ].filter(Boolean);
}

/** The benchmark measures what users run: the compiled CLI, built from the current sources. */
function build(): void {
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (tsc.status !== 0)
    throw new Error(`tsc -b failed, so dist/ would not match the sources:\n${tsc.stdout}${tsc.stderr}`);
}

/** The median run by cases/s, with the highest peak RSS seen in any of the runs. */
function median(runs: Measure[]): Measure {
  const middle = [...runs].sort((a, b) => a.casesPerSecond - b.casesPerSecond)[Math.floor(runs.length / 2)]!;
  return { ...middle, rssKb: Math.max(...runs.map((r) => r.rssKb)) };
}

interface Measure {
  casesPerSecond: number;
  runMs: number;
  rssKb: number;
  /** User + system CPU seconds of the whole process (NaN without /usr/bin/time). */
  cpuS: number;
}

/**
 * The folder the CLI runs in: a project of its own (no config file) with no run history, so each run
 * records its history as a project's first run does instead of reading the 10 MB records the earlier
 * runs of the bench wrote. The suite is linked into it: the CLI searches for its config from the
 * suite's folder, and from `bench/.data` it would find the repository's own config and history.
 */
function emptyProject(input: string): string {
  const dir = join(data, 'project');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{"name": "kernel-bench", "private": true}\n');
  symlinkSync(input, join(dir, basename(input)));
  return dir;
}

function measure(args: string[], n: number, tsx: boolean, cwd = root): Measure {
  const node = [...(tsx ? ['--import', 'tsx', '--conditions=@agentest/source'] : []), ...args];
  const useTime = existsSync('/usr/bin/time');
  const started = performance.now();
  const run = useTime
    ? spawnSync('/usr/bin/time', ['-v', process.execPath, ...node], {
        cwd,
        encoding: 'utf8',
        stdio: ['ignore', 'ignore', 'pipe'],
        maxBuffer: 1 << 26,
      })
    : spawnSync(process.execPath, node, { cwd, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
  const wallMs = performance.now() - started;
  if (run.status !== 0 && run.status !== 1)
    throw new Error(`benchmark child failed (${run.status}): ${run.stderr.slice(-2000)}`);
  const rssKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr)?.[1] ?? NaN);
  const cpu = (label: string) =>
    Number(new RegExp(`${label} time \\(seconds\\): ([\\d.]+)`).exec(run.stderr)?.[1] ?? NaN);
  const cpuS = cpu('User') + cpu('System');
  const runMs = Number(/RUN_MS=(\d+(?:\.\d+)?)/.exec(run.stderr)?.[1] ?? summaryDuration(args) ?? wallMs);
  return { casesPerSecond: n / (runMs / 1000), runMs, rssKb, cpuS };
}

/** The CLI's own run duration, from the summary line at the end of its JSONL output. */
function summaryDuration(args: string[]): number | undefined {
  const out = args[args.indexOf('-o') + 1];
  if (!args.includes('-o') || !out || !existsSync(out)) return undefined;
  const size = statSync(out).size;
  const buffer = Buffer.alloc(Math.min(size, 8192));
  const fd = openSync(out, 'r');
  readSync(fd, buffer, 0, buffer.length, size - buffer.length);
  closeSync(fd);
  const tail = buffer.toString('utf8').trim().split('\n').at(-1)!;
  const summary = JSON.parse(tail) as { duration_ms: number };
  rmSync(out);
  return summary.duration_ms;
}

/** `cases-N.jsonl`: each input is a small JSON document the echo agent sends back. */
function suite(n: number): string {
  const file = join(data, `cases-${n}.jsonl`);
  if (existsSync(file)) return file;
  const lines: string[] = [];
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const input = JSON.stringify({ order: i, status: i % 50 === 0 ? 'late' : 'ok', note: `hello world ${i}` });
    lines.push(
      JSON.stringify({
        id: `C${i}`,
        input,
        assert: [
          { type: 'contains', value: 'hello' },
          { type: 'regex', value: 'world \\d+' },
          { type: 'json_path', path: '$.status', value: 'ok' },
        ],
      }),
    );
    if (lines.length === 10_000) out.push(lines.splice(0).join('\n'));
  }
  if (lines.length) out.push(lines.join('\n'));
  writeFileSync(file, out.join('\n') + '\n');
  return file;
}

/** The floor: what any runner must at least do for this suite, written as directly as possible. */
async function floor(input: string, output: string): Promise<void> {
  const started = performance.now();
  const out = createWriteStream(output);
  const lines = createInterface({ input: createReadStream(input), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line) continue;
    const t = performance.now();
    const c = JSON.parse(line) as {
      id: string;
      input: string;
      assert: { type: string; value?: string; path?: string }[];
    };
    const text = c.input;
    let pass = text.includes(c.assert[0]!.value!);
    pass &&= new RegExp(c.assert[1]!.value!).test(text);
    pass &&= (JSON.parse(text) as { status: string }).status === c.assert[2]!.value;
    const ok = out.write(
      JSON.stringify({
        type: 'result',
        id: c.id,
        status: pass ? 'passed' : 'failed',
        duration_ms: performance.now() - t,
        output: text,
      }) + '\n',
    );
    if (!ok) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  process.stderr.write(`RUN_MS=${performance.now() - started}\n`);
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en');
}

function seconds(s: number): string {
  return Number.isFinite(s) ? `${s.toFixed(1)} s` : 'n/a';
}

function mb(kb: number): string {
  return Number.isFinite(kb) ? `${Math.round(kb / 1024)} MB` : 'n/a';
}
