import type { ExecuteContext, JudgeRecord } from '@agentest/kernel';
import { didYouMean } from '@agentest/kernel/errors';
import { AGENT_PREFIX, CONNECTOR_PREFIX, judge, readJudgeSettings } from '@agentest/judge';

/** What `t.assert.Agent(response, agentId, opts)` sends to the main thread: its arguments, copied. */
export interface JudgeAsk {
  args: unknown[];
}

/** The answer the script's thread gets back: a verdict, or why there is none. */
export interface JudgeAnswer {
  pass: boolean;
  message?: string;
  error?: string;
}

export type ScriptJudge = (ask: JudgeAsk) => Promise<JudgeAnswer>;

/** Keys of `t.assert.Agent`'s third argument passed on as the judge's `options`. */
const OPTION_KEYS = ['connector', 'metadata', 'temperature', 'seed', 'timeout'] as const;
/** Every key the third argument takes: Yao's three (`criteria`, `metadata`, `connector`), then agentest's. */
const KNOWN_KEYS: readonly string[] = ['criteria', 'samples', ...OPTION_KEYS];

/**
 * Judges one `t.assert.Agent` call on the main thread, as Yao does (`script_assert.go:
 * assertAgentMethod`): the first argument is the output, `input` is null, `opts.criteria` the
 * criteria, `opts.metadata` and `opts.connector` the options. The agent id gets `agents:` unless it
 * already has it (Yao would double it) or names a `connector:`. `opts.samples`, `temperature`,
 * `seed` and `timeout` work as on the JSONL assertion; any other key is an error naming it (Yao ignores
 * it). Every judgement is pushed to `records`.
 */
export function scriptJudge(ctx: ExecuteContext, records: JudgeRecord[], chatId: string): ScriptJudge {
  return async ({ args }) => {
    if (args.length < 2) return { pass: false, message: 'Agent requires response and agentID arguments' };
    const id = String(args[1]);
    const use = id.startsWith(AGENT_PREFIX) || id.startsWith(CONNECTOR_PREFIX) ? id : `${AGENT_PREFIX}${id}`;
    const opts = isObject(args[2]) ? args[2] : {};
    // Yao drops other keys silently, so `{ critera: … }` or `{ negate: true }` would judge something else than meant.
    const unknown = Object.keys(opts).find((key) => !KNOWN_KEYS.includes(key));
    if (unknown !== undefined)
      return {
        pass: false,
        error: `t.assert.Agent: "${unknown}" is not an option${didYouMean(unknown, KNOWN_KEYS)} (options: ${KNOWN_KEYS.join(', ')})`,
      };
    const options = Object.fromEntries(OPTION_KEYS.filter((key) => opts[key] !== undefined).map((k) => [k, opts[k]]));
    const settings = readJudgeSettings({ use, samples: opts.samples, options });
    if ('problem' in settings) return { pass: false, error: `t.assert.Agent: ${settings.problem}` };
    const outcome = await judge({
      output: args[0] ?? null,
      input: null,
      criteria: opts.criteria,
      settings,
      resolveAgent: ctx.resolveAgent,
      signal: ctx.signal,
      chatId: `${chatId}-${records.length + 1}`,
    });
    records.push(outcome.record);
    if ('error' in outcome) return { pass: false, error: outcome.error };
    return outcome.passed
      ? { pass: true, ...(outcome.reason ? { message: outcome.reason } : {}) }
      : { pass: false, message: outcome.reason || 'agent assertion failed' };
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
