import { dirname, join, resolve } from 'node:path';
import type { InputMode } from './input-mode.js';

/** `YYYYMMDDHHMMSS` in local time, as Yao names its default output (`output-20241217100000.jsonl`). */
export function timestamp(date: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`;
}

/**
 * The default output path without its extension: `{input_dir}/output-{timestamp}` for a file,
 * inside the directory for a directory input, and in the working directory otherwise. Every
 * default output of one run shares it (`output-….jsonl`, `output-….html`).
 */
export function outputStem(mode: InputMode, input: string, cwd: string, date: Date = new Date()): string {
  const name = `output-${timestamp(date)}`;
  if (mode === 'file') return join(dirname(resolve(cwd, input)), name);
  if (mode === 'directory') return join(resolve(cwd, input), name);
  return join(cwd, name);
}

/** Modes whose default is a file; message and script runs print to the terminal unless `-o` is given. */
export function writesDefaultFile(mode: InputMode): boolean {
  return mode === 'file' || mode === 'directory' || mode === 'glob' || mode === 'generated';
}
