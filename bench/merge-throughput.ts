/**
 * Merge throughput: `agentest merge` of four shard blobs holding 100k case results together, through
 * the installed command as a CI merge job runs it (the blobs read and checked, every case replayed through
 * the kernel, the JSONL report written). The blobs are written by four real shard runs (`--shard i/4`,
 * echo agent, three assertions per case). The floor, in the same run, only reads the blobs line by
 * line and parses each line: what a merge parsing every result would at least do. Where the merge's CPU time goes is
 * timed in a process of its own (`--phases <dir>`) on the same blobs. Prints a Markdown section.
 * `--floor <dir>` runs the floor itself.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { BLOB_FORMAT } from '../packages/cli/src/blob/blob-header.js';
import { buildBundle } from './_build.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const data = join(root, 'bench', '.data', 'merge');
const CASES = Number(process.env.BENCH_MERGE_CASES ?? 100_000);
const SHARDS = 4;
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const TARGET_MS = 3_000;
/** The command `@agentest/test` installs (the bundle and its code cache): a CI merge job's `npx agentest merge`. */
const CLI = join(root, 'packages/test/bin/agentest.js');

if (process.argv[2] === '--floor') await floor(process.argv[3]!);
else if (process.argv[2] === '--phases') await phases(process.argv[3]!);
else main();

function main(): void {
  buildBundle();
  const blobs = writeBlobs();
  // The data folder is a project of its own, so the merge's run history stays in it.
  writeFileSync(join(data, 'package.json'), '{"private":true}\n');
  const bytes = readdirSync(blobs).reduce((sum, name) => sum + statSync(join(blobs, name)).size, 0);
  const merges: Timing[] = [];
  const floors: Timing[] = [];
  for (let i = 0; i < REPEATS; i++) {
    floors.push(floorRun(blobs));
    // A fresh CI merge job: the merged run is recorded into an empty run history, and no earlier
    // merged.jsonl is there to truncate (freeing the old file's 60 MB held the open ~60 ms).
    rmSync(join(data, '.agentest'), { recursive: true, force: true });
    rmSync(join(data, 'merged.jsonl'), { force: true });
    merges.push(timed([CLI, 'merge', blobs, '-o', join(data, 'merged.jsonl')]));
  }
  const [merge, floorTime] = [median(merges), median(floors)];
  const phase = phasesRun(blobs);
  console.log(`## Merge of 100k results (\`agentest merge\`, ${SHARDS} shard blobs)

${SHARDS} blobs written by real shard runs (\`agentest test -i cases.jsonl -n echo --shard i/${SHARDS}\`, three
assertions per case, one run each) hold ${CASES.toLocaleString('en')} case results, ${mbOf(bytes)} in all (blob format ${BLOB_FORMAT}). The merge is the
\`agentest\` command \`@agentest/test\` installs (its bundle, loaded with V8's code cache) in a child process, as a CI
merge job runs it (\`npx agentest merge\`): \`agentest merge <dir> -o merged.jsonl\`, stdout to /dev/null (the console
prints what a merge prints by default: the ${(CASES / 50).toLocaleString('en')} cases that did not pass, the failed cases again and the
summary), recording the merged run in an empty run history as a fresh CI merge job does.
Its time, from spawn to exit, covers start-up, reading and checking the blobs, replaying every case through the kernel
(status, metrics and summary recomputed from the runs, thresholds judged), writing the report and the history record. The floor is a plain loop in its own process: read each blob line by line and \`JSON.parse\` it; its
time is the loop's alone (its process start-up is left out, which favours the floor). Both run ${REPEATS} times, alternating
(the machine is shared); the table shows the **median** by wall time. CPU time (user + system) is what the process itself
used: a loaded machine stretches the wall time, not the CPU time, and on an idle one the two are about equal.

| figure | value |
|---|---|
| merge wall time (median) | ${fmt(merge.wallMs)} ms |
| merge CPU time (same run) | ${fmt(merge.cpuMs)} ms |
| every merge, wall / CPU, in order | ${merges.map((t) => `${fmt(t.wallMs)} / ${fmt(t.cpuMs)} ms`).join(' · ')} |
| floor: read + parse the blobs, wall / CPU (median) | ${fmt(floorTime.wallMs)} / ${fmt(floorTime.cpuMs)} ms |
| every floor run, wall / CPU, in order | ${floors.map((t) => `${fmt(t.wallMs)} / ${fmt(t.cpuMs)} ms`).join(' · ')} |
| merge ÷ floor, CPU time | ${(merge.cpuMs / floorTime.cpuMs).toFixed(2)}× |
| results merged per CPU second | ${fmt(CASES / (merge.cpuMs / 1000))} |
| target: merge of 100k results ≤ ${fmt(TARGET_MS)} ms, wall / CPU | ${verdict(merge.wallMs)} / ${verdict(merge.cpuMs)} |
| machine load (1-minute average, 2 cores) at the end | ${loadAverage()} |
${starvedNote()}
Where the merge's CPU time goes, timed in one process of its own (the built modules, no start-up) on the same
blobs, each step adding to the one before, CPU ms:

| phase | CPU time |
|---|---|
${phase.map(([name, ms]) => `| ${name} | ${fmt(ms)} ms |`).join('\n')}

${explanation()}`);
}

/** How the merge goes about it, and where its time goes. */
function explanation(): string {
  return `The blobs are read once: each case's final result line is kept as text (its id and kind read from the line's
start) for the checks, and parsed only when its case is replayed, then let go once its result is reported, so
the merge never holds 100k parsed results. The replay through the kernel recomputes every status, stability
figure, the summary and the verdict with the code a live run uses. Each case's recorded runs are handed to the
kernel as the case's (\`TestCase.recordedRuns\`): it sends their \`case_start\` and \`run_result\` events and asks the
run policy as for a live case, but makes no run (no executor call, assertion, run context, deadline or call
scope). A replayed case goes from its line to its reported result in one synchronous step: the kernel's pool and its
check of the suite read a plain iterable of cases without a promise, and the reports answer at once unless one has
to wait (a full file stream), so no promise or microtask is made per case, nothing of a case outlives it, and the
heap stays flat through the replay (≈ 560 bytes a case were promoted to the old generation before, 56 MB in all). With one run per case a blob's result line is the shard's own \`.jsonl\` line plus the run's keys, and a
passed case's line also carries an index of itself (blob format 3: its keys in order, with the values of all but
the large ones, input, source, output and assertions: ≈ 130 bytes, the blobs a fifth larger than format 2's). This merge's reports (the JSONL report, the
console printing only the cases that did not pass, the history) read nothing else of a passed case, so the merge
parses only the index of the 98,000 passed cases (about a fifth of the text; the 2,000 others are parsed whole)
and replays each from its parsed index as it is (the case and its run read from it, its large values held in the line)
and the JSONL reporter writes each line as it is when the merged record has the same keys and values (the
recomputed metrics and history compared value by value): no passed result is parsed whole or serialised again.
A merge with any other report (HTML, JSON, JUnit, …), \`-v\`, or a reporter or plugin of the config's own parses
every line whole, as a format-2 blob always is (the floor parses every line whole, too). What remains, by a CPU profile of the whole command
(\`node --cpu-prof\`): garbage collection, reading the blobs (decoding the text, cutting the lines, the id and kind
of each), writing the merged report's bytes, parsing the indexes, then the kernel's work per case (its
\`case_start\`, \`run_result\` and \`result\` events through every report tap), the history record and the
checks; the console's own functions take ≈ 0.1 s of it (its step in the table also carries the noise of a
separate replay). Start-up is the bundle's: the unbundled \`dist/\` modules (62 files) cost ≈ 0.6 s more CPU.`;
}

function verdict(ms: number): string {
  return ms <= TARGET_MS ? '✅ met' : '❌ missed';
}

/**
 * Four shards of the suite, run once and kept in bench/.data: the blobs are the input, not what is measured.
 * The folder is named by the blob format, since a merge refuses blobs another format wrote.
 */
function writeBlobs(): string {
  const blobs = join(data, `blobs-${CASES}-format-${BLOB_FORMAT}`);
  if (existsSync(blobs) && readdirSync(blobs).length === SHARDS) return blobs;
  rmSync(blobs, { recursive: true, force: true });
  // Fresh CI jobs: the shards read an empty run history, as the merge job's is
  // (an earlier merge's record is not theirs).
  rmSync(join(data, '.agentest'), { recursive: true, force: true });
  mkdirSync(data, { recursive: true });
  const cases = join(data, `cases-${CASES}.jsonl`);
  const lines = Array.from({ length: CASES }, (_, i) =>
    JSON.stringify({
      id: `C${i}`,
      input: JSON.stringify({ order: i, status: i % 50 === 0 ? 'late' : 'ok', note: `hello world ${i}` }),
      assert: [
        { type: 'contains', value: 'hello' },
        { type: 'regex', value: 'world \\d+' },
        { type: 'json_path', path: '$.status', value: 'ok' },
      ],
    }),
  );
  writeFileSync(cases, `${lines.join('\n')}\n`);
  for (let shard = 1; shard <= SHARDS; shard++) {
    const args = ['test', '-i', cases, '-n', 'echo', '--parallel', '16', '--no-jsonl', '--no-history'];
    const run = spawnSync(
      process.execPath,
      [CLI, ...args, '--shard', `${shard}/${SHARDS}`, '--run-id', 'bench', '--blob-dir', blobs],
      { cwd: data, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] },
    );
    if (run.status !== 0 && run.status !== 1) throw new Error(`shard ${shard} failed: ${run.stderr.slice(-2000)}`);
  }
  return blobs;
}

/** One measured process: its wall time, and the CPU time it used (user + system), which load does not stretch. */
interface Timing {
  wallMs: number;
  cpuMs: number;
}

/** The merge in a child process under `/usr/bin/time -v`: wall time from spawn to exit, and its CPU time. */
function timed(args: string[]): Timing {
  const started = performance.now();
  const run = spawnSync('/usr/bin/time', ['-v', process.execPath, ...args], {
    cwd: data,
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const wallMs = performance.now() - started;
  if (run.status !== 0 && run.status !== 1) throw new Error(`merge failed (${run.status}): ${run.stderr.slice(-2000)}`);
  const seconds = (label: string) => Number(new RegExp(`${label} time \\(seconds\\): ([\\d.]+)`).exec(run.stderr)?.[1]);
  return { wallMs, cpuMs: (seconds('User') + seconds('System')) * 1000 };
}

/** The floor in its own process; its times are the reading and parsing alone (it reports them), not its start-up. */
function floorRun(blobs: string): Timing {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--conditions=@agentest/source', fileURLToPath(import.meta.url), '--floor', blobs],
    { cwd: data, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const [wallMs, cpuMs] = [/FLOOR_MS=([\d.]+)/, /FLOOR_CPU_MS=([\d.]+)/].map((re) => Number(re.exec(run.stderr)?.[1]));
  if (run.status !== 0 || !Number.isFinite(wallMs) || !Number.isFinite(cpuMs))
    throw new Error(`floor failed (${run.status}): ${run.stderr.slice(-2000)}`);
  return { wallMs: wallMs!, cpuMs: cpuMs! };
}

/** The phases in a child process (built modules, `tsx` only for this file); it prints them as JSON. */
function phasesRun(blobs: string): [string, number][] {
  const run = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--phases', blobs], {
    cwd: data,
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const found = /PHASES=(.*)/.exec(run.stderr)?.[1];
  if (run.status !== 0 || !found) throw new Error(`phases failed (${run.status}): ${run.stderr.slice(-2000)}`);
  return JSON.parse(found) as [string, number][];
}

/** The merge's steps one by one, through the built modules `agentest merge` runs, each step's CPU time. */
async function phases(dir: string): Promise<void> {
  const dist = (path: string) => import(join(root, 'packages', path));
  const { readBlob } = await dist('cli/dist/blob/read-blob.js');
  const { checkShardSet } = await dist('cli/dist/blob/check-blobs.js');
  const { replayShards } = await dist('cli/dist/blob/replay-shards.js');
  const { createKernel } = await dist('kernel/dist/index.js');
  const { verdictPlugin } = await dist('report/dist/index.js');
  const { default: jsonlReporter } = await dist('reporter-jsonl/dist/index.js');
  const { default: consoleReporter } = await dist('reporter-console/dist/index.js');
  const { HistoryStore, historyPlugin } = await dist('history/dist/index.js');
  const names = readdirSync(dir).sort();
  const timed: [string, number][] = [];
  const step = async (name: string, work: () => unknown) => {
    const before = process.cpuUsage();
    await work();
    const used = process.cpuUsage(before);
    timed.push([name, (used.user + used.system) / 1000]);
  };
  const replay = async (reporters: unknown[]) => {
    const blobs = await Promise.all(names.map((name) => readBlob(join(dir, name), name)));
    // As the merge with these reporters does: a passed case is replayed from its line's index.
    const { plan, plugin } = replayShards(checkShardSet(blobs, undefined), data, { lean: () => true });
    await createKernel({ plugins: [plugin, verdictPlugin(), ...reporters] }).run(plan);
  };
  let blobs: unknown[] = [];
  await step('read the blobs (headers parsed, result lines kept as text)', async () => {
    blobs = await Promise.all(names.map((name) => readBlob(join(dir, name), name)));
  });
  await step('check the shard set', () => checkShardSet(blobs, undefined));
  await step('read, check and replay every case through the kernel (a passed case from its index)', () => replay([]));
  const jsonl = () => jsonlReporter({ output: join(data, 'phases.jsonl') });
  // As the merge prints by default: the cases that did not pass, the failed cases again and the summary.
  const terminal = () =>
    consoleReporter({ stream: new Writable({ write: (_c, _e, done) => done() }), cases: 'failed' });
  await step('the same, writing the merged JSONL report', () => replay([jsonl()]));
  await step('the same, with the console (the cases that did not pass, then the summary)', () =>
    replay([jsonl(), terminal()]),
  );
  const history = join(data, '.agentest', 'phases-history');
  rmSync(history, { recursive: true, force: true });
  await step('the same, recording the merged run in an empty run history', () =>
    replay([jsonl(), terminal(), historyPlugin({ store: new HistoryStore(history), past: [], input: 'cases.jsonl' })]),
  );
  process.stderr.write(`PHASES=${JSON.stringify(timed)}\n`);
}

/** The floor: read every blob of the folder line by line and parse each line, nothing else. */
async function floor(dir: string): Promise<void> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  let parsed = 0;
  for (const name of readdirSync(dir).sort()) {
    const lines = createInterface({ input: createReadStream(join(dir, name)), crlfDelay: Infinity });
    for await (const line of lines) if (line && JSON.parse(line)) parsed++;
  }
  if (parsed < CASES) throw new Error(`the floor parsed ${parsed} lines, fewer than the ${CASES} results`);
  const used = process.cpuUsage(cpu);
  process.stderr.write(`FLOOR_MS=${performance.now() - started}\nFLOOR_CPU_MS=${(used.user + used.system) / 1000}\n`);
}

function median(runs: Timing[]): Timing {
  return [...runs].sort((a, b) => a.wallMs - b.wallMs)[Math.floor(runs.length / 2)]!;
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en');
}

function mbOf(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}

/** On a machine busier than its cores, wall times measure the wait for a core, and CPU times swell with it. */
function starvedNote(): string {
  const load = loadavg()[0]!;
  if (load <= cpus().length) return '';
  return `\n**Measured at a load average of ${load.toFixed(1)} on ${cpus().length} cores**: the wall times are mostly waiting for a core, and the CPU times are swollen by the contention too (the floor's own CPU time shows by how much against a quiet machine's ≈ 900–1,300 ms); the target needs a run on a quiet machine.\n`;
}

function loadAverage(): string {
  return loadavg()[0]!.toFixed(1);
}
