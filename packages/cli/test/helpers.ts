import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');
/**
 * A CLI run of one test has ended by then, or it hangs: runs here take a second or two on an idle
 * machine and up to a minute on a very busy one. Only a hang catcher, never what a test asserts.
 */
const CLI_HANG_MS = 300_000;

/** A throw-away project: a directory with a package.json (so config search stops there) and the given files. */
export function fixture(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-cli-'));
  writeFileSync(join(dir, 'package.json'), '{"name": "fixture", "private": true, "type": "module"}\n');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/** What `npm i -D @agentest/test` gives a project: the package resolvable from its files (a config that imports it). */
export function installAgentest(dir: string): string {
  mkdirSync(join(dir, 'node_modules', '@agentest'), { recursive: true });
  symlinkSync(fileURLToPath(new URL('../../test', import.meta.url)), join(dir, 'node_modules/@agentest/test'), 'dir');
  return dir;
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Spawns the real CLI from source, as users run it, with colour off unless the test says otherwise; kills it if it
 * hangs.
 */
export function agentest(
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; onSpawn?: (child: ReturnType<typeof spawn>) => void },
): Promise<CliRun> {
  const env = { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '', DEBUG: '', ...options.env };
  const child = spawn(process.execPath, ['--import', TSX, '--conditions=@agentest/source', BIN, ...args], {
    cwd: options.cwd,
    env,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  options.onSpawn?.(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `the CLI did not exit within ${CLI_HANG_MS} ms: agentest ${args.join(' ')}\nstdout:\n${stdout.slice(-2000)}\nstderr:\n${stderr.slice(-2000)}`,
        ),
      );
    }, CLI_HANG_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** JSONL lines of a suite; each case is one line. */
export function jsonl(cases: object[]): string {
  return cases.map((c) => JSON.stringify(c)).join('\n') + '\n';
}

export function readJsonl(text: string): { type: string; [key: string]: unknown }[] {
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

/** Two passing cases and one failing one against the `echo` agent. */
export const MIXED = jsonl([
  { id: 'T1', input: 'hello world', assert: { type: 'contains', value: 'hello' } },
  { id: 'T2', input: 'good morning', assert: { type: 'regex', value: 'morning$' } },
  { id: 'T3', input: 'bye', assert: { type: 'contains', value: 'hello' } },
]);

export const PASSING = jsonl([
  { id: 'P1', input: 'hello world', assert: { type: 'contains', value: 'hello' } },
  { id: 'P2', input: 'hello again', expected: 'hello again' },
]);
