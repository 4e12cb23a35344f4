import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';

/**
 * RE2, the regular expressions of Yao's Go `regexp` (linear time, `(?i)` flags, no lookaround), as
 * re2js gives them. It is 267 KB of code that most runs never use, so it is loaded on demand: by
 * `loadRe2` where a pattern is known to be coming (a suite with a regex assertion, `--run`).
 */
export type Re2 = typeof RE2JS;

let engine: Re2 | undefined;

/** Loads RE2 once, before the synchronous code that compiles patterns (`re2()`) runs. */
export async function loadRe2(): Promise<Re2> {
  return (engine ??= (await import('re2js')).RE2JS);
}

/** Whether RE2 is loaded already, so that a caller can skip looking for patterns. */
export function re2Loaded(): boolean {
  return engine !== undefined;
}

/**
 * RE2, for code that compiles a pattern synchronously. Loaded by `loadRe2` on every path agentest
 * takes; a program that calls such code directly (`createRunPlan({ filter })`) gets it loaded here.
 */
export function re2(): Re2 {
  return (engine ??= (createRequire(import.meta.url)('re2js') as { RE2JS: Re2 }).RE2JS);
}
