#!/usr/bin/env node
// Runs every benchmark in bench/*.ts (each prints one Markdown section) and writes bench/RESULTS.md.
// `npm run bench -- kernel` runs only the benchmarks whose file name contains "kernel" and keeps the
// other sections of RESULTS.md as they were.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const benchDir = join(root, 'bench');
const resultsFile = join(benchDir, 'RESULTS.md');
const only = process.argv.slice(2);
const files = readdirSync(benchDir)
  .filter((f) => f.endsWith('.ts') && !f.startsWith('_'))
  .sort();
const selected = files.filter((f) => only.length === 0 || only.some((o) => f.includes(o)));

const previous = existsSync(resultsFile) ? readSections(readFileSync(resultsFile, 'utf8')) : new Map();
for (const file of selected) {
  console.error(`▶ bench/${file}`);
  const started = Date.now();
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--conditions=@agentest/source', '--expose-gc', join(benchDir, file)],
    {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, NO_COLOR: '1' },
    },
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const body =
    run.status === 0
      ? run.stdout.trim()
      : `**Failed** (exit ${run.status}).\n\n\`\`\`\n${(run.stdout || '').slice(-2000)}\n\`\`\``;
  previous.set(
    file,
    `<!-- bench:${file} -->\n${body}\n\n_Run of \`bench/${file}\` took ${seconds}s on ${new Date().toISOString().slice(0, 10)}._\n<!-- /bench:${file} -->`,
  );
  console.error(`  ${run.status === 0 ? 'done' : 'FAILED'} in ${seconds}s`);
}

const header = `# Benchmark results\n\nWritten by \`npm run bench\` (\`scripts/bench.mjs\`); each section is the output of one file in \`bench/\`.\nThe machine is shared: a bench that repeats a measurement reports the **median** run and lists every run.\nMachine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}.\n`;
writeFileSync(
  resultsFile,
  [header, ...[...previous.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, s]) => s)].join('\n\n') + '\n',
);
console.error(`wrote ${resultsFile}`);

function readSections(text) {
  const map = new Map();
  for (const m of text.matchAll(/<!-- bench:(\S+) -->[\s\S]*?<!-- \/bench:\1 -->/g)) map.set(m[1], m[0]);
  return map;
}
