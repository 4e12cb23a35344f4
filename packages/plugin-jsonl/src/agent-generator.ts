import { AgentestError, errorMessage, planContextOf, replyJson, type LoadContext } from '@agentest/kernel';
import type { AgentSource } from './generator-source.js';

const DEFAULT_GENERATOR_TIMEOUT_MS = 5 * 60_000;

/**
 * Asks a generator agent for cases, as Yao does: one user message, the JSON
 * `{"target_agent": {"id"}, "count", "focus"?, "extra"?}`; the reply's JSON (bare or fenced) is
 * the cases. Unlike Yao, the call has a deadline (`--timeout`, else 5m; W3) and a chat id of its own
 * (W10). An unreachable generator, a failed call or a reply without JSON is `GENERATOR_FAILED`
 * naming `-i` and quoting the reply.
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
  const signal = AbortSignal.timeout(ctx.plan.timeoutMs ?? DEFAULT_GENERATOR_TIMEOUT_MS);
  let text: string;
  try {
    const reply = await generator.run([{ role: 'user', content: JSON.stringify(request) }], context, signal, {});
    if (reply.content !== null && typeof reply.content === 'object') return reply.content;
    text = reply.text || (typeof reply.content === 'string' ? reply.content : '');
  } catch (error) {
    throw failed(
      input,
      `generator "${generator.id}" failed: ${signal.aborted ? 'it did not answer in time' : errorMessage(error)}`,
    );
  }
  const value = replyJson(text);
  if (value === undefined)
    throw failed(
      input,
      `generator "${generator.id}" did not answer with JSON cases: ${JSON.stringify(text.slice(0, 200))}`,
    );
  return value;
}

function failed(input: string, problem: string): AgentestError {
  return new AgentestError('GENERATOR_FAILED', `-i ${JSON.stringify(input)}: ${problem}`, { where: '-i' });
}
