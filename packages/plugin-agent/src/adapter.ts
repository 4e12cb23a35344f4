import type { Agent, AgentReply } from '@agentest/kernel';
import { adapterInput } from './adapter-input.js';
import { gradeEvaluation, type StandardResult } from './grade.js';
import { describe } from './shapes.js';

/** agentest-kit's adapter contract: `call` the system, `evaluate` the reply (may be async). */
export interface Adapter<Input = unknown, CallResult = unknown, Evaluation = unknown> {
  call(input: Input): Promise<CallResult> | CallResult;
  evaluate?(callResult: CallResult, input: Input): Promise<Evaluation> | Evaluation;
}

/**
 * Turns an agentest-kit adapter into an agent. One run: `call(input)` with every field of the case,
 * then `evaluate(callResult, input)` (awaited, so an async evaluate works), and the evaluation
 * graded PASS / PARTIAL / FAIL into the reply's verdict.
 *
 * The reply's `content` is the evaluation (what assertions and `ctx.run` see), or the call result
 * when there is no `evaluate`; `raw` is always the call result. `input.signal` (not enumerable)
 * fires at the case's timeout, for adapters that can cancel their request. A throwing `call` or `evaluate`
 * rejects the run, which the executor records as an error on that case alone: the run goes on
 * (agentest-kit aborts the whole suite).
 */
export function adapterToAgent(id: string, adapter: Adapter, options: { path?: string } = {}): Agent {
  return {
    id,
    ...(options.path ? { path: options.path } : {}),
    async run(messages, _ctx, signal, call) {
      const input = adapterInput(messages, call);
      // Not enumerable: adapters that spread or serialise their input do not carry it along.
      Object.defineProperty(input, 'signal', { value: signal, enumerable: false });
      const started = performance.now();
      const callResult = await adapter.call(input);
      const latencyMs = Math.round((performance.now() - started) * 100) / 100;
      if (!adapter.evaluate) {
        if (callResult === undefined)
          throw new Error(
            `adapter "${id}": call() returned undefined; return the call result (e.g. { elapsed_ms, error, raw })`,
          );
        return reply(callResult, callResult, latencyMs);
      }
      const evaluation = await adapter.evaluate(callResult, input);
      if (evaluation === undefined || evaluation === null) {
        throw new Error(
          `adapter "${id}": evaluate() returned ${describe(evaluation)}; return the evaluation ({ structure_ok, intent_matched, keyword_hit_rate, … })`,
        );
      }
      return reply(evaluation, callResult, latencyMs);
    },
  };
}

function reply(content: unknown, raw: unknown, latencyMs: number): AgentReply {
  const out: AgentReply = { content, text: displayText(content), raw };
  if (content && typeof content === 'object' && !Array.isArray(content))
    out.verdict = gradeEvaluation(content as StandardResult, { latencyMs });
  return out;
}

function displayText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
