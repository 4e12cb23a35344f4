/**
 * Cold start of the `agentest` command that `@agentest/test` installs (`bin/agentest.js`, which runs the bundle's
 * one script with V8's code cache): `--version`, `--help`, and a 10-case suite against the `echo` agent end to
 * end, against bare Node
 * (`node -e ''`) measured in the same rounds. Every command runs once per round, the commands
 * interleaved (the machine is shared, so a busy moment slows all of them); the table shows medians.
 * promptfoo's `--version` joins the rounds when it is installed where PROMPTFOO_BIN points.
 * Prints a Markdown section.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBundle } from './_build.js';
import { attribute, partsTable } from './_cold-start-profile.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const data = join(root, 'bench', '.data', 'cold-start');
const BIN = join(root, 'packages/test/bin/agentest.js');
const DIST_BIN = join(root, 'packages/cli/dist/bin.js');
/** The bundle's script run as the command runs it, but compiled from its source: what the code cache saves. */
const NO_CACHE_BIN = join(data, 'no-code-cache.mjs');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const PROFILES = 3;
const PROMPTFOO = process.env.PROMPTFOO_BIN;

interface Command {
  name: string;
  args: string[];
}

main();

function main(): void {
  buildBundle();
  mkdirSync(data, { recursive: true });
  const cases = Array.from({ length: 10 }, (_, i) =>
    JSON.stringify({ id: `C${i + 1}`, input: `hello ${i + 1}`, assert: [{ type: 'contains', value: 'hello' }] }),
  );
  writeFileSync(join(data, 'cases.jsonl'), `${cases.join('\n')}\n`);
  writeFileSync(join(data, 'package.json'), '{"name": "cold-start", "private": true}\n');
  const dist = join(root, 'packages/test/dist');
  writeFileSync(
    NO_CACHE_BIN,
    `import { loadCachedScript } from ${JSON.stringify(join(dist, 'cached-script.js'))};\n` +
      `const script = loadCachedScript(${JSON.stringify(join(dist, 'bundle/agentest.cjs'))}, () => []);\n` +
      'await script.exports.command().runCommand(process.argv.slice(2));\n',
  );
  const commands: Command[] = [
    { name: "`node -e ''` (floor)", args: ['-e', ''] },
    { name: '`agentest --version`', args: [BIN, '--version'] },
    { name: '`agentest --help`', args: [BIN, '--help'] },
    {
      name: '`agentest test -i cases.jsonl -n echo` (10 cases)',
      args: [BIN, 'test', '-i', 'cases.jsonl', '-n', 'echo', '-o', join(data, 'out.jsonl')],
    },
    // What the bundle saves: the same suite run by the unbundled dist/ modules, one file per source module.
    {
      name: '`node packages/cli/dist/bin.js test …` (unbundled dist/, for comparison)',
      args: [DIST_BIN, 'test', '-i', 'cases.jsonl', '-n', 'echo', '-o', join(data, 'out.jsonl')],
    },
    {
      name: 'the same suite, the bundle compiled without its code cache (for comparison)',
      args: [NO_CACHE_BIN, 'test', '-i', 'cases.jsonl', '-n', 'echo', '-o', join(data, 'out.jsonl')],
    },
    ...(PROMPTFOO && existsSync(PROMPTFOO) ? [{ name: '`promptfoo --version`', args: [PROMPTFOO, '--version'] }] : []),
  ];
  const load = [loadavg()[0]!];
  const times = commands.map(() => [] as Timing[]);
  run(commands[1]!); // one untimed round fills the file cache
  for (let round = 0; round < ROUNDS; round++) commands.forEach((command, i) => times[i]!.push(run(command)));
  load.push(loadavg()[0]!);
  report(commands, times, load);
  console.log(`\n${whereTimeGoes(commands[3]!)}`);
}

/** The echo suite under V8's sampling profiler, PROFILES times: where its time goes, part by part. */
function whereTimeGoes(command: Command): string {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-cold-profile-'));
  try {
    for (let i = 0; i < PROFILES; i++)
      run({ ...command, args: ['--cpu-prof', `--cpu-prof-dir=${dir}`, ...command.args] });
    const parts = attribute(readdirSync(dir).map((file) => join(dir, file)));
    return `Where the echo suite's time goes: V8's sampling profile of ${PROFILES} more runs (mean per run; the profiler
samples every millisecond of the main thread's wall time, so a busy machine inflates every part, the profiler adds a
little, and the shares are the figures to compare). Module evaluation is each module's top-level code and what it calls.

${partsTable(parts)}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Wall time and CPU time (user + system, from `/usr/bin/time`) of one command in its own process, in
 * milliseconds. On a shared machine the wall time mostly measures the wait for a core; CPU time does not.
 */
function run(command: Command): Timing {
  const started = process.hrtime.bigint();
  const child = spawnSync('/usr/bin/time', ['-f', 'cpu %U %S', process.execPath, ...command.args], {
    cwd: data,
    encoding: 'utf8',
    env: benchEnv(),
  });
  const wall = Number(process.hrtime.bigint() - started) / 1e6;
  if (child.status !== 0) throw new Error(`${command.name} exited ${child.status}:\n${child.stderr}`);
  const [, user, system] = /cpu (\S+) (\S+)\s*$/.exec(child.stderr)!;
  return { wall, cpu: (Number(user) + Number(system)) * 1000 };
}

interface Timing {
  wall: number;
  cpu: number;
}

function benchEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.NODE_OPTIONS;
  return env;
}

function report(commands: Command[], times: Timing[][], load: number[]): void {
  const medians = times.map((runs) => median(runs.map((t) => t.wall)));
  const cpu = times.map((runs) => median(runs.map((t) => t.cpu)));
  const floor = medians[0]!;
  const rows = commands.map(
    (command, i) =>
      `| ${command.name} | ${ms(medians[i]!)} | ${(medians[i]! / floor).toFixed(2)}× | ${ms(cpu[i]!)} | ${(cpu[i]! / cpu[0]!).toFixed(2)}× | ${times[i]!.map((t) => ms(t.wall)).join(' · ')} |`,
  );
  const [version, help, echo] = [medians[1]!, medians[2]!, medians[3]!];
  const promptfoo = medians[6];
  console.log(`## Cold start of the \`agentest\` command

\`packages/test/bin/agentest.js\` (what \`@agentest/test\` installs; it runs the bundle \`npm run build\` makes, one script compiled with V8's code cache) as a child
process, against bare Node in the same rounds: ${ROUNDS} rounds, each running every command once in turn, after one untimed run; the table shows each
command's **median** wall time and its ratio to the floor's median, the same for CPU time (user + system, which a busy
machine inflates far less than wall time), and every run's wall time in order. The echo suite is 10 cases with one
\`contains\` assertion each, written to a JSONL file.

| command | wall (median) | ÷ floor | CPU (median) | ÷ floor | every run's wall |
|---|---:|---:|---:|---:|---|
${rows.join('\n')}

Targets:
- \`--version\` within 2× of \`node -e ''\`: **${(version / floor).toFixed(2)}×** → ${version <= 2 * floor ? 'met' : 'missed'}
- \`--help\` within 2× of \`node -e ''\`: **${(help / floor).toFixed(2)}×** → ${help <= 2 * floor ? 'met' : 'missed'}
- 10-case echo suite ≤ 350 ms end to end: **${ms(echo)}** → ${echo <= 350 ? 'met' : 'missed'}
- the same suite from the unbundled dist/: **${ms(medians[4]!)}**, so the bundle takes **${((echo / medians[4]!) * 100).toFixed(0)}%** of its wall time (CPU: **${((cpu[3]! / cpu[4]!) * 100).toFixed(0)}%**)
- the code cache saves the suite **${ms(cpu[5]! - cpu[3]!)}** of CPU time (the script compiled from its source: ${ms(cpu[5]!)}; wall ${ms(medians[5]!)})
${
  promptfoo === undefined
    ? '- promptfoo not measured in this run (set PROMPTFOO_BIN to its `dist/src/entrypoint.js` or bin file)'
    : `- at least 25× faster than promptfoo's \`--version\`: **${(promptfoo / version).toFixed(1)}×** → ${promptfoo >= 25 * version ? 'met' : 'missed'}`
}

Machine load (1-minute average, 2 cores): ${load.map((l) => l.toFixed(1)).join(' at the start, ')} at the end.`);
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

function ms(value: number): string {
  return `${Math.round(value)} ms`;
}
