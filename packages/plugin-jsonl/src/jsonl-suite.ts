import type { Suite } from '@agentest/kernel';
import type { CaseRuleOptions } from './case-rules.js';
import { JsonlCases, type PassMemory } from './jsonl-cases.js';

export const DEFAULT_TIMEOUT_MS = 5 * 60_000;

export interface JsonlSuiteOptions extends CaseRuleOptions {
  /** The `-i` value as given: the suite's name. */
  name: string;
  /** Absolute path of the file. */
  path: string;
  /** The file as messages and `source.file` name it. */
  file: string;
  maxLineBytes: number;
  /** Where relative `file://` paths start (default: the file's folder). */
  baseDir?: string;
}

/**
 * A suite over a JSONL file. `cases()` starts a new pass on every call (the kernel reads once to
 * check and count, once to run) and streams the file; see `JsonlCases` for what a pass keeps and
 * what a later pass over the unchanged file skips (for a file of up to `KEEP_CASES_BYTES`, the
 * parsing: the run pass hands out the cases the checking pass built).
 */
export function jsonlSuite(options: JsonlSuiteOptions): Suite {
  const memory: PassMemory = {};
  return {
    name: options.name,
    needsAgent: true,
    agentHint: { path: options.path },
    defaultTimeoutMs: DEFAULT_TIMEOUT_MS,
    meta: { mode: 'file', file: options.path },
    cases: () => new JsonlCases(options, memory),
  };
}
