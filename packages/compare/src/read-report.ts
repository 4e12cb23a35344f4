import { open, readFile, type FileHandle } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import type { ComparisonInput } from './comparison-input.js';
import { readJsonReport } from './read-json.js';
import { readJsonl } from './read-jsonl.js';
import { isObject } from './read-case.js';
import { unreadable } from './report-errors.js';

const EVENT_TYPES = new Set(['start', 'case_start', 'run_result', 'result', 'summary']);

/**
 * Loads any agentest report for a comparison: the `.jsonl` event stream or the `.json` document,
 * told apart by content (the first line of a stream is a whole event), so a renamed file still reads.
 */
export async function readReport(path: string, cwd: string = process.cwd()): Promise<ComparisonInput> {
  const file = resolve(cwd, path);
  const shown = isAbsolute(path) ? path : relative(cwd, file) || path;
  const firstLine = parseObject(await readFirstLine(file, shown));
  if (firstLine && EVENT_TYPES.has(firstLine.type as string)) return readJsonl(file, shown);
  if (firstLine && 'input' in firstLine && !('type' in firstLine)) {
    throw unreadable(
      shown,
      'is a test suite (its lines are cases with "input"), not a report: compare the files agentest test writes (-o run.jsonl or -o report.json)',
      1,
    );
  }
  const content = await readFile(file, 'utf8');
  if (!content.trim()) throw unreadable(shown, 'is empty: the run that should have written it did not finish');
  let document: unknown;
  try {
    document = JSON.parse(content);
  } catch (error) {
    throw unreadable(shown, `is neither a JSON report nor a JSONL event stream (${(error as Error).message})`);
  }
  return readJsonReport(document, shown);
}

async function readFirstLine(file: string, shown: string): Promise<string> {
  try {
    const handle = await open(file, 'r');
    try {
      return await firstLineOf(handle);
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw unreadable(
      shown,
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'EISDIR'
          ? 'is a directory, not a report file'
          : `cannot be read (${(error as Error).message})`,
    );
  }
}

/** Reads up to the first newline only: an event stream can be large. */
async function firstLineOf(handle: FileHandle): Promise<string> {
  const chunks: Buffer[] = [];
  for (let position = 0; ;) {
    const { bytesRead, buffer } = await handle.read({ buffer: Buffer.alloc(64 * 1024), position });
    if (bytesRead === 0) break;
    const chunk = buffer.subarray(0, bytesRead);
    const newline = chunk.indexOf(10);
    chunks.push(newline === -1 ? chunk : chunk.subarray(0, newline));
    if (newline !== -1) break;
    position += bytesRead;
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseObject(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
