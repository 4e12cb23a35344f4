import { AgentestError, planContextOf, type LoadContext } from '@agentest/kernel';
import { errorMessage } from '@agentest/kernel/errors';
import { goDuration, goJsonEscape, replyJson } from '@agentest/common';
import type { AgentSource } from './generator-source.js';

const DEFAULT_GENERATOR_TIMEOUT_MS = 5 * 60_000;

/**
 * Asks a generator agent for cases, as Yao does: one user message, the JSON
 * `{"target_agent": {"id"}, "count", "focus"?, "extra"?}` (`<`, `>`, `&` escaped as Go does); the
 * reply's JSON (bare or fenced) is the cases. Unlike Yao, the call has a deadline (`--timeout`, else
 * 5m; W3) and a chat id of its own (W10). An unreachable generator, a failed call or a reply without
 * JSON is `GENERATOR_FAILED` naming `-i` and quoting the reply.
 */
export async function askGenerator(source: AgentSource, input: string, ctx: LoadContext): Promise<unknown> {
  const generator = await ctx.resolveAgent({ id: source.id }).catch((error: unknown) => {
    throw failed(input, `its generator agent could not be loaded: ${errorMessage(error)}`);
  });
  const target = ctx.plan.agent?.id;
  const request = {
    target_agent: target ? { id: target } : {},
    count: source.count,
    ...(source.focus !== undefined ? { focus: source.focus } : {}),
    ...(Object.keys(source.extra).length ? { extra: source.extra } : {}),
  };
  // Who the generator is asked as: the plan's context (the CLI's -u/-t/--ctx), with a chat id of its own.
  const context = planContextOf(ctx.plan).forAgent(generator.id)({}, `generator-${source.id}-${Date.now()}`);
  const limitMs = ctx.plan.timeoutMs ?? DEFAULT_GENERATOR_TIMEOUT_MS;
  const deadline = new AbortController();
  // A timer of its own rather than AbortSignal.timeout, whose timer does not keep the process alive:
  // a generator that ignores its signal would end the CLI silently (exit 13) instead of at the deadline.
  const timer = setTimeout(() => deadline.abort(new Error('deadline')), limitMs);
  const { signal } = deadline;
  let text: string;
  try {
    const reply = await Promise.race([
      generator.run([{ role: 'user', content: goJsonEscape(JSON.stringify(request)) }], context, signal, {}),
      rejectOnAbort(signal),
    ]);
    if (reply.content !== null && typeof reply.content === 'object') return reply.content;
    text = reply.text || (typeof reply.content === 'string' ? reply.content : '');
  } catch (error) {
    const why = signal.aborted ? `it gave no answer within ${goDuration(limitMs)} (--timeout)` : errorMessage(error);
    throw failed(input, `generator "${generator.id}" failed: ${why}`);
  } finally {
    clearTimeout(timer);
  }
  const value = replyJson(text);
  if (value === undefined)
    throw failed(
      input,
      `generator "${generator.id}" did not answer with JSON cases: ${JSON.stringify(text.slice(0, 200))}`,
    );
  return value;
}

/** Settles (by rejecting) when the signal fires, so the wait ends even if the agent ignores it. */
function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
}

function failed(input: string, problem: string): AgentestError {
  return new AgentestError('GENERATOR_FAILED', `-i ${JSON.stringify(input)}: ${problem}`, { where: '-i' });
}
