import { Writable } from 'node:stream';
import { runCli } from '../src/index.js';
import type { CliRun } from './helpers.js';

/** A stream that keeps what is written to it. */
export class Captured extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.text += String(chunk);
    done();
  }
}

/**
 * The CLI run in this process (no child, no tsx start-up): for checks of what a run decides and
 * prints, where process-level behaviour (signals, pipes, exit) is not the point.
 */
export async function agentestInProcess(
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<CliRun> {
  const stdout = new Captured();
  const stderr = new Captured();
  const env = { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '', DEBUG: '', ...options.env };
  const code = await runCli(args, { cwd: options.cwd, env, stdout, stderr });
  return { code, signal: null, stdout: stdout.text, stderr: stderr.text };
}
