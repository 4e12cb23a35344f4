import { AgentestError, type Suite, type TestCase } from '@agentest/kernel';
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { IdSet } from './id-set.js';
import { parseCase } from './parse-case.js';
import { LineError, readLineBatches, readLines, type Line } from './read-lines.js';

export const DEFAULT_TIMEOUT_MS = 5 * 60_000;

export interface JsonlSuiteOptions {
  /** The `-i` value as given: the suite's name. */
  name: string;
  /** Absolute path of the file. */
  path: string;
  /** The file as messages and `source.file` name it. */
  file: string;
  maxLineBytes: number;
}

/**
 * A suite over a JSONL file. `cases()` opens the file afresh on every call (the kernel reads once to
 * check and count, once to run) and streams it: only fingerprints of the ids seen so far are kept,
 * to report duplicates. Once a whole pass found none, later passes over the unchanged file (same
 * size, modification time and inode) skip that bookkeeping.
 */
export function jsonlSuite(options: JsonlSuiteOptions): Suite {
  const checked: { stamp?: string } = {};
  return {
    name: options.name,
    needsAgent: true,
    agentHint: { path: options.path },
    defaultTimeoutMs: DEFAULT_TIMEOUT_MS,
    meta: { mode: 'file', file: options.path },
    cases: () => readCases(options, checked),
  };
}

async function* readCases({ path, file, maxLineBytes }: JsonlSuiteOptions, checked: { stamp?: string }): AsyncGenerator<TestCase> {
  const baseDir = dirname(path);
  try {
    const { stamp, size } = await fileStamp(path);
    const tracking = stamp === undefined || stamp !== checked.stamp;
    let seen: IdSet | undefined;
    for await (const lines of readLineBatches(path, maxLineBytes)) {
      if (tracking && !seen) seen = new IdSet(expectedLines(size, lines));
      for (const { number, text } of lines) {
        const trimmed = text.trim();
        if (!trimmed || trimmed.startsWith('//')) continue;
        const testCase = parseCase(trimmed, { file, line: number, baseDir });
        if (seen?.full) seen = await idsBefore(path, maxLineBytes, number, new IdSet(seen.capacity * 2));
        const first = seen?.add(testCase.id) ? await firstUse(path, maxLineBytes, testCase.id, number) : undefined;
        if (first !== undefined) {
          const where = `${file}:${number}`;
          throw new AgentestError('DUPLICATE_CASE_ID', `${where}: duplicate id "${testCase.id}" (first used on line ${first}) — give every case a unique id`, { where });
        }
        yield testCase;
      }
    }
    // Only a pass that read every line vouches for the file.
    if (tracking) checked.stamp = stamp;
  } catch (error) {
    throw asLoadError(error, path, file);
  }
}

/** What identifies one version of the file (`undefined` when it cannot be read: the read reports why), and its size. */
async function fileStamp(path: string): Promise<{ stamp?: string; size: number }> {
  const info = await stat(path, { bigint: true }).catch(() => undefined);
  return info ? { stamp: `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`, size: Number(info.size) } : { size: 0 };
}

/** The file's line count, judged from its size and the lines of the first chunk, with room to spare. */
function expectedLines(fileBytes: number, firstLines: readonly Line[]): number {
  let chars = 0;
  for (const line of firstLines) chars += line.text.length + 1;
  return Math.ceil((fileBytes / Math.max(chars, 1)) * firstLines.length * 1.25);
}

/**
 * A larger id set holding the ids of the lines before `before`, for when the first chunk made the
 * file look shorter than it is. Those lines parsed once already, so only their ids are read.
 */
async function idsBefore(path: string, maxLineBytes: number, before: number, ids: IdSet): Promise<IdSet> {
  for await (const lines of readLineBatches(path, maxLineBytes)) {
    for (const { number, text } of lines) {
      if (number >= before) return ids;
      const trimmed = text.trim();
      if (trimmed && !trimmed.startsWith('//')) ids.add((JSON.parse(trimmed) as { id: string }).id);
    }
  }
  return ids;
}

/**
 * The line before `before` where `id` was first used, or `undefined` if none: the id set only keeps
 * fingerprints, so a possible duplicate is confirmed (and its first line found) by reading the
 * lines before it again, which happens once for a real duplicate (the load stops there) and almost
 * never otherwise. Those lines parsed once already, so only their ids are looked at.
 */
async function firstUse(path: string, maxLineBytes: number, id: string, before: number): Promise<number | undefined> {
  for await (const { number, text } of readLines(path, maxLineBytes)) {
    if (number >= before) return undefined;
    const trimmed = text.trim();
    if (!trimmed || trimmed.startsWith('//')) continue;
    if ((JSON.parse(trimmed) as { id?: unknown }).id === id) return number;
  }
  return undefined;
}

function asLoadError(error: unknown, path: string, file: string): unknown {
  if (error instanceof AgentestError) return error;
  if (error instanceof LineError) {
    const where = `${file}:${error.line}`;
    return new AgentestError('INPUT_INVALID', `${where}: ${error.message}`, { where });
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new AgentestError('INPUT_NOT_FOUND', `input file not found: ${path} — check the -i path`, { where: '-i' });
  if (code === 'EISDIR') return new AgentestError('INPUT_INVALID', `${path} is a directory, not a JSONL file — pass the .jsonl file itself`, { where: '-i' });
  return new AgentestError('INPUT_INVALID', `${file}: cannot read the file (${(error as Error).message})`, { where: file, cause: error });
}
