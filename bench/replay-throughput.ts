/**
 * Replay throughput: 2,000 agent cases recorded once against the fake server, then replayed from their
 * cassettes at `--parallel 64` with the server stopped, through the built CLI (an `openai` connector
 * agent, one cassette file per case). The floor, measured in the same run, is the same suite against
 * the `echo` agent: everything agentest does per case except the model call. Prints a Markdown section.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeLlm } from '@agentest/fake-llm';

const root = fileURLToPath(new URL('..', import.meta.url));
const CASES = Number(process.env.BENCH_REPLAY_CASES ?? 2_000);
const PARALLEL = 64;
/** The machine is shared: each side runs this many times and the fastest run is kept. */
const REPEATS = 3;

interface Measure {
  casesPerSecond: number;
  runMs: number;
  passed: number;
}

const dir = mkdtempSync(join(tmpdir(), 'agentest-bench-replay-'));
try {
  await main();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

async function main(): Promise<void> {
  build();
  const cases = Array.from({ length: CASES }, (_, i) => ({
    id: `C${String(i).padStart(5, '0')}`,
    input: `Question ${i}: what is the status of order A${1000 + i}?`,
    assert: [{ type: 'contains', value: 'order' }],
  }));
  writeFileSync(join(dir, 'cases.jsonl'), cases.map((c) => JSON.stringify(c)).join('\n') + '\n');

  const llm = await startFakeLlm({ rules: [{ reply: ({ text }) => `About your order: ${text.slice(0, 40)}` }] });
  const connector = ['-n', 'bot', '--config', 'agentest.config.json'];
  writeFileSync(
    join(dir, 'agentest.config.json'),
    JSON.stringify({
      agents: { bot: { connector: 'fake' } },
      connectors: { fake: { type: 'openai', model: 'gpt-4o-mini', host: llm.url } },
    }),
  );
  let recorded: Measure;
  try {
    recorded = await cli([...connector, '--record']);
  } finally {
    await llm.close();
  }
  const files = readdirSync(join(dir, '__cassettes__', 'cases')).length;
  const replay = await best(() => cli([...connector, '--replay']));
  const floor = await best(() => cli(['-n', 'echo']));
  const ratio = floor.casesPerSecond / replay.casesPerSecond;
  console.log(`## Replay throughput (cassettes, parallel ${PARALLEL})

${CASES.toLocaleString('en')} agent cases (an \`openai\` connector agent, one \`contains\` assertion each) recorded once
against the fake server (\`--record\`, ${files.toLocaleString('en')} cassette files), then replayed with the server stopped:
\`agentest test -i cases.jsonl -n bot --replay --parallel ${PARALLEL}\`, the built CLI as a child process. The floor,
measured in the same run, is the same suite against the \`echo\` agent: every cost of a case but the model call.
Cases/s is cases over the run's own duration (the summary's \`duration_ms\`); each side runs ${REPEATS} times, fastest kept.

| run | cases/s | run time | passed |
|---|---:|---:|---:|
| record (fake server, live calls) | ${fmt(recorded.casesPerSecond)} | ${(recorded.runMs / 1000).toFixed(2)} s | ${recorded.passed} |
| **replay** (server stopped) | **${fmt(replay.casesPerSecond)}** | ${(replay.runMs / 1000).toFixed(2)} s | ${replay.passed} |
| floor: \`echo\` agent | ${fmt(floor.casesPerSecond)} | ${(floor.runMs / 1000).toFixed(2)} s | ${floor.passed} |

Targets:
- every case replayed and passed: **${replay.passed} of ${CASES}** → ${replay.passed === CASES ? 'met' : 'missed'}
- replay within 5× of the floor: **${ratio.toFixed(2)}×** → ${ratio <= 5 ? 'met' : 'missed'}

A replayed case reads its cassette file (one per case), hashes the request, and parses the recorded reply
through the connector's own reply reader; the floor does none of that and calls no connector.`);
}

/** Spawned, not run synchronously: the fake server answers from this process's event loop. */
async function cli(args: string[]): Promise<Measure> {
  const out = join(dir, 'out.jsonl');
  const child = spawn(
    process.execPath,
    [
      join(root, 'packages/cli/dist/bin.js'),
      'test',
      '-i',
      'cases.jsonl',
      ...args,
      '-o',
      out,
      '--parallel',
      String(PARALLEL),
    ],
    { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CI: '' } },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`agentest ${args.join(' ')} exited ${code}: ${stderr.slice(-2000)}`);
  const summary = JSON.parse(readFileSync(out, 'utf8').trim().split('\n').at(-1)!) as {
    duration_ms: number;
    passed: number;
  };
  return { casesPerSecond: CASES / (summary.duration_ms / 1000), runMs: summary.duration_ms, passed: summary.passed };
}

async function best(run: () => Promise<Measure>): Promise<Measure> {
  const runs: Measure[] = [];
  for (let i = 0; i < REPEATS; i++) runs.push(await run());
  return runs.reduce((a, b) => (b.casesPerSecond > a.casesPerSecond ? b : a));
}

/** The benchmark measures what users run: the compiled CLI, built from the current sources. */
function build(): void {
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (tsc.status !== 0) throw new Error(`tsc -b failed:\n${tsc.stdout}${tsc.stderr}`);
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en');
}
