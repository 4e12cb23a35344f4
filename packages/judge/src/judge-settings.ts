import { parseDuration } from '@agentest/common';
import { parseHelperRef, type HelperRef } from './helper-ref.js';

/** The defaults that make a verdict repeatable: no sampling noise, and the same seed every run. */
export const DEFAULT_TEMPERATURE = 0;
export const DEFAULT_SEED = 42;
export const DEFAULT_JUDGE_TIMEOUT_MS = 60_000;
/** More samples than this cost a lot and say little more about agreement. */
export const MAX_SAMPLES = 25;

/** How one judge is asked: who, how often, with which model parameters, for how long. */
export interface JudgeSettings {
  ref: HelperRef;
  samples: number;
  temperature: number;
  seed: number;
  timeoutMs: number;
  /** Yao's `options.connector`: the connector an assistant judge uses. */
  connector?: string;
  /** Yao's `options.metadata`: copied into the payload's top level. */
  metadata?: Record<string, unknown>;
}

/** A judge as the author wrote it, in any of the three front ends (JSONL, `t.assert.Agent`, `toSatisfy`). */
export interface JudgeSpec {
  use?: unknown;
  samples?: unknown;
  options?: unknown;
  [key: string]: unknown;
}

const OPTION_KEYS = ['connector', 'metadata', 'temperature', 'seed', 'timeout'];

/**
 * Reads and checks a judge's settings. Yao takes a field only when its JSON type matches and
 * silently drops the rest; here a wrong type is a problem named with the field, so that a typo
 * never quietly changes how a verdict is reached.
 */
export function readJudgeSettings(spec: JudgeSpec): JudgeSettings | { problem: string } {
  const ref = parseHelperRef(spec.use);
  if ('problem' in ref) return ref;
  const samples = spec.samples ?? 1;
  if (!Number.isInteger(samples) || (samples as number) < 1 || (samples as number) > MAX_SAMPLES)
    return { problem: `"samples" must be a whole number from 1 to ${MAX_SAMPLES}, got ${JSON.stringify(samples)}` };
  const options = spec.options ?? {};
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    return { problem: `"options" must be an object, got ${JSON.stringify(options)}` };
  const o = options as Record<string, unknown>;
  const unknown = Object.keys(o).find((key) => !OPTION_KEYS.includes(key));
  if (unknown) return { problem: `"options.${unknown}" is not a judge option (known: ${OPTION_KEYS.join(', ')})` };
  if (o.connector !== undefined && (typeof o.connector !== 'string' || !o.connector))
    return { problem: `"options.connector" must be a connector id, got ${JSON.stringify(o.connector)}` };
  if (o.metadata !== undefined && (typeof o.metadata !== 'object' || o.metadata === null || Array.isArray(o.metadata)))
    return { problem: `"options.metadata" must be an object, got ${JSON.stringify(o.metadata)}` };
  const temperature = o.temperature ?? DEFAULT_TEMPERATURE;
  if (typeof temperature !== 'number' || !(temperature >= 0 && temperature <= 2))
    return { problem: `"options.temperature" must be a number from 0 to 2, got ${JSON.stringify(o.temperature)}` };
  const seed = o.seed ?? DEFAULT_SEED;
  if (!Number.isSafeInteger(seed))
    return { problem: `"options.seed" must be a whole number, got ${JSON.stringify(o.seed)}` };
  let timeoutMs = DEFAULT_JUDGE_TIMEOUT_MS;
  if (o.timeout !== undefined) {
    try {
      timeoutMs = parseDuration(o.timeout as string | number, 'options.timeout');
    } catch {
      return {
        problem: `"options.timeout" must be a duration such as "30s" or a number of ms, got ${JSON.stringify(o.timeout)}`,
      };
    }
  }
  return {
    ref,
    samples: samples as number,
    temperature,
    seed: seed as number,
    timeoutMs,
    ...(o.connector ? { connector: o.connector as string } : {}),
    ...(o.metadata ? { metadata: o.metadata as Record<string, unknown> } : {}),
  };
}
