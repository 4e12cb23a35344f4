import { bindRunScope, runScopeOf } from '@agentest/kernel/run-scope';
import { errorMessage } from '@agentest/kernel/errors';
import { type Agent, type AgentRef, type CallRole, type Message, type TokenUsage } from '@agentest/kernel';
import { buildTestContext } from '@agentest/plugin-agent';
import { resolverId, type HelperRef } from './helper-ref.js';

/** One call of a helper agent: what to send, under which deadline, with which model parameters. */
export interface HelperCall {
  ref: HelperRef;
  /** The helper, from `resolveHelper`. */
  agent: Agent;
  messages: Message[];
  /** The case's signal: the helper never outlives its case. */
  signal: AbortSignal;
  /** The helper's own time limit, within the case's. */
  timeoutMs: number;
  /** Model request parameters that win over the helper's own (a judge's temperature and seed). */
  llm?: Record<string, unknown>;
  /** Per-call options as a case gives them (`connector`, `metadata`). */
  options?: Record<string, unknown>;
  /** A chat id of its own, so parallel helper calls never share one (unlike Yao's fixed "validator"). */
  chatId: string;
  /** Whose call this is, for what meters and records calls by role (default `judge`). */
  role?: CallRole;
}

/** What a helper answered, with what it cost. */
export interface HelperReply {
  /** The reply's content: a Next hook's data, else the completion (as for the agent under test). */
  content: unknown;
  /** The content as text: a string as is, anything else as JSON. */
  text: string;
  usage?: TokenUsage;
  duration_ms: number;
  /** The model that answered, when the reply says. */
  model?: string;
}

export type HelperFailure = 'not_found' | 'unreachable' | 'timeout';

/** A helper call that produced no reply: why, in words that name the helper. */
export class HelperError extends Error {
  constructor(
    readonly kind: HelperFailure,
    message: string,
    readonly duration_ms: number,
  ) {
    super(message);
    this.name = 'HelperError';
  }
}

/**
 * Finds the helper through the run's resolvers (`ExecuteContext.resolveAgent`); one that cannot be
 * found is a `HelperError` naming it.
 */
export async function resolveHelper(ref: HelperRef, resolveAgent: (ref: AgentRef) => Promise<Agent>): Promise<Agent> {
  const started = performance.now();
  try {
    return await resolveAgent({ id: resolverId(ref) });
  } catch (error) {
    const elapsed = Math.round((performance.now() - started) * 100) / 100;
    throw new HelperError('not_found', `cannot find ${ref.use}: ${errorMessage(error)}`, elapsed);
  }
}

/**
 * Sends the helper `messages` once. The call ends at its own time limit or the case's, whichever
 * comes first (Yao's helper calls have none); a thrown call and a time-out are each a
 * `HelperError` saying which.
 */
export async function callHelper(call: HelperCall): Promise<HelperReply> {
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 100) / 100;
  const agent = call.agent;
  const deadline = callDeadline(call.signal, call.timeoutMs);
  const signal = deadline.signal;
  // The call's own signal stands for the case run too, in the helper's role, so that what records
  // and meters model calls by run (cassettes, the usage meter) counts them as the run's judge calls
  // (or simulator calls), also when a script or test() function makes them mid-run.
  const scope = runScopeOf(call.signal);
  bindRunScope(signal, scope && { ...scope, role: call.role ?? 'judge' });
  const context = buildTestContext({ flags: {}, chatId: call.chatId, assistantId: agent.id });
  try {
    const reply = await abortable(
      agent.run(call.messages, context, signal, {
        ...(call.options ? { options: call.options } : {}),
        ...(call.llm ? { llm: call.llm } : {}),
      }),
      signal,
    );
    const model = modelOf(reply.trace);
    return {
      content: reply.content,
      text: textOf(reply.content),
      ...(reply.usage ? { usage: reply.usage } : {}),
      duration_ms: elapsed(),
      ...(model ? { model } : {}),
    };
  } catch (error) {
    if (deadline.timedOut() && !call.signal.aborted)
      throw new HelperError('timeout', `${call.ref.use} gave no answer within ${call.timeoutMs}ms`, elapsed());
    if (call.signal.aborted) throw error;
    throw new HelperError('unreachable', `${call.ref.use} failed: ${errorMessage(error)}`, elapsed());
  } finally {
    deadline.dispose();
  }
}

/** The longest delay a Node timer takes; a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The signal of one helper call: aborted with the case's reason when the case's signal is, or with
 * a `TimeoutError` after `ms`, whichever comes first. One controller, one timer and one listener,
 * all let go by `dispose()` when the call ends: `AbortSignal.any([signal, AbortSignal.timeout(ms)])`
 * would make two more signals per call (judge samples, simulator turns), kept until garbage
 * collection finds them.
 */
function callDeadline(
  parent: AbortSignal,
  ms: number,
): { signal: AbortSignal; timedOut: () => boolean; dispose: () => void } {
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort(parent.reason);
  const timer = setTimeout(
    () => {
      timedOut = true;
      controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    },
    Math.min(ms, MAX_TIMER_MS),
  );
  // As AbortSignal.timeout's timer: it never keeps the process alive by itself.
  timer.unref();
  if (parent.aborted) onAbort();
  else parent.addEventListener('abort', onAbort);
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose: () => {
      clearTimeout(timer);
      parent.removeEventListener('abort', onAbort);
    },
  };
}

/** Stops waiting when the signal fires, even for an agent that ignores it. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  try {
    return JSON.stringify(content) ?? String(content);
  } catch {
    return String(content);
  }
}

/** A connector's `trace.model`, or a Yao assistant's `trace.completion.model`. */
function modelOf(trace: Record<string, unknown> | undefined): string | undefined {
  if (!trace) return undefined;
  if (typeof trace.model === 'string') return trace.model;
  const completion = trace.completion as Record<string, unknown> | undefined;
  return typeof completion?.model === 'string' ? completion.model : undefined;
}
