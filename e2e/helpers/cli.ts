import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { HANG_MS } from './deadlines.js';

const BIN = fileURLToPath(new URL('../../packages/cli/src/bin.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Wall time from spawn to exit. */
  ms: number;
}

export interface CliOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /**
   * Kill the CLI (and fail loudly) when it runs longer than this: a hang catcher, `HANG_MS` unless a test plans a
   * longer run.
   */
  limitMs?: number;
}

/** The real `agentest` binary, run from source in a child process, as users and CI run it. */
export function spawnCli(args: readonly string[], options: CliOptions): ChildProcess {
  return spawn(process.execPath, ['--import', TSX, '--conditions=@agentest/source', BIN, ...args], {
    cwd: options.cwd,
    env: { ...process.env, NO_COLOR: '1', DEBUG: '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Collects a spawned CLI's output until it exits; kills it at `limitMs` (it hangs). `what` names the command in
 * that failure, for a test that runs something other than the CLI (npm, tsc).
 */
export function finished(child: ChildProcess, limitMs = HANG_MS, what = 'the CLI'): Promise<CliRun> {
  const started = Date.now();
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `${what} did not exit within ${limitMs} ms\nstdout:\n${stdout.slice(-2000)}\nstderr:\n${stderr.slice(-2000)}`,
        ),
      );
    }, limitMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
    });
  });
}

export function runCli(args: readonly string[], options: CliOptions): Promise<CliRun> {
  return finished(spawnCli(args, options), options.limitMs);
}

/** A user-facing error never shows a JavaScript stack frame. */
export function stackFrames(text: string): string[] {
  return text.split('\n').filter((line) => /^\s+at .+[:(]/.test(line));
}
