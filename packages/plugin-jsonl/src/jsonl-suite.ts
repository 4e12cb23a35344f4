import { AgentestError, type Suite, type TestCase } from '@agentest/kernel';
import { dirname } from 'node:path';
import { IdSet } from './id-set.js';
import { parseCase } from './parse-case.js';
import { LineError, readLineBatches, readLines } from './read-lines.js';

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
 * to report duplicates.
 */
export function jsonlSuite(options: JsonlSuiteOptions): Suite {
  return {
    name: options.name,
    needsAgent: true,
    agentHint: { path: options.path },
    defaultTimeoutMs: DEFAULT_TIMEOUT_MS,
    meta: { mode: 'file', file: options.path },
    cases: () => readCases(options),
  };
}

async function* readCases({ path, file, maxLineBytes }: JsonlSuiteOptions): AsyncGenerator<TestCase> {
  const baseDir = dirname(path);
  const seen = new IdSet();
  try {
    for await (const lines of readLineBatches(path, maxLineBytes)) {
      for (const { number, text } of lines) {
        const trimmed = text.trim();
        if (!trimmed || trimmed.startsWith('//')) continue;
        const testCase = parseCase(trimmed, { file, line: number, baseDir });
        const first = seen.add(testCase.id) ? await firstUse(path, maxLineBytes, testCase.id, number) : undefined;
        if (first !== undefined) {
          const where = `${file}:${number}`;
          throw new AgentestError('DUPLICATE_CASE_ID', `${where}: duplicate id "${testCase.id}" (first used on line ${first}) — give every case a unique id`, { where });
        }
        yield testCase;
      }
    }
  } catch (error) {
    throw asLoadError(error, path, file);
  }
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
