import { errorMessage } from '@agentest/kernel/errors';
import { type AgentReply, type ExecuteContext, type Execution, type TestCase } from '@agentest/kernel';
import { callSignal, echoAgent, echoReply } from './echo.js';
import { describe } from './shapes.js';

/**
 * The `agent` executor: one run of one case sends its messages to the suite's agent. The reply's
 * content becomes the output the kernel asserts on. Everything that goes wrong with the case (a
 * throw, a malformed reply) is data on the execution, never a throw, so the run goes on; only an
 * aborted signal is rethrown, because the kernel knows whether it was a timeout or an interruption.
 */
export async function executeAgentCase(testCase: TestCase, ctx: ExecuteContext): Promise<Execution> {
  const agent = ctx.agent;
  if (!agent) return errored(ctx, 0, `case "${testCase.id}" needs an agent and none was resolved; pass -n <agent-id>`);
  const started = performance.now();
  let reply: unknown;
  try {
    reply = await agent.run(testCase.messages, ctx.context, callSignal(agent, ctx), {
      options: testCase.options,
      testCase,
    });
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    const failed = errored(ctx, performance.now() - started, thrownText(error, agent.id));
    // Connectors report how many attempts a failed call made; keep the retries visible on the run.
    const attempts = (error as { attempts?: unknown } | null)?.attempts;
    if (typeof attempts === 'number' && attempts > 1) failed.retries = attempts - 1;
    // An agent may attach what it recorded before the throw (hook logs, the calls it made) as `trace`.
    const trace = (error as { trace?: unknown } | null)?.trace;
    if (trace && typeof trace === 'object' && !Array.isArray(trace)) failed.trace = trace as Record<string, unknown>;
    return failed;
  }
  const duration_ms = performance.now() - started;
  const problem = replyProblem(reply);
  if (problem) return errored(ctx, duration_ms, `agent "${agent.id}" ${problem}`);
  return fromReply(reply as AgentReply, ctx.run, duration_ms);
}

/**
 * The run of a case whose agent is the echo agent, made at once: no call to await, so the kernel runs
 * the case without a promise (in a fast suite, each promise per case is a measurable share of the run).
 * Any other agent, or a case the echo agent cannot answer, answers `undefined`: `executeAgentCase` runs it.
 */
export function echoExecution(testCase: TestCase, ctx: ExecuteContext): Execution | undefined {
  if (ctx.agent !== echoAgent) return undefined;
  const started = performance.now();
  let reply: AgentReply;
  try {
    reply = echoReply(testCase.messages);
  } catch {
    return undefined;
  }
  return fromReply(reply, ctx.run, performance.now() - started);
}

function fromReply(reply: AgentReply, run: number, duration_ms: number): Execution {
  const verdict = reply.verdict;
  const execution: Execution = {
    run,
    status: verdict?.status ?? 'passed',
    duration_ms,
    output: reply.content,
    assertions: [],
    // A copy: the kernel merges assertion metrics into this object.
    metrics: verdict?.metrics ? { ...verdict.metrics } : {},
    reply,
  };
  if (verdict?.status === 'failed') execution.error = verdict.error || 'the agent graded its reply as failed';
  if (verdict?.grade !== undefined || verdict?.details)
    execution.details = { ...(verdict.grade !== undefined ? { grade: verdict.grade } : {}), ...verdict.details };
  if (reply.toolCalls) execution.tool_calls = reply.toolCalls;
  if (reply.usage) execution.usage = reply.usage;
  if (reply.trace) {
    execution.trace = reply.trace;
    if (typeof reply.trace.retries === 'number') execution.retries = reply.trace.retries;
  }
  return execution;
}

/** Why a value is not a usable reply, or undefined when it is one. */
function replyProblem(reply: unknown): string | undefined {
  if (!reply || typeof reply !== 'object' || Array.isArray(reply))
    return `returned ${describe(reply)} instead of a reply object { content, text }`;
  const r = reply as Partial<AgentReply>;
  if (!('content' in r) || r.content === undefined)
    return `returned a reply without "content" (keys: ${Object.keys(r).join(', ') || 'none'})`;
  if (r.verdict !== undefined) {
    const status = (r.verdict as { status?: unknown } | null)?.status;
    if (status !== 'passed' && status !== 'failed')
      return `returned a verdict with status ${JSON.stringify(status)}; use "passed" or "failed"`;
  }
  return undefined;
}

/** The kernel's `errorMessage`, except that a throw with nothing to say names the agent that threw. */
function thrownText(error: unknown, agentId: string): string {
  if (error instanceof Error && !error.message)
    return `agent "${agentId}" threw ${error.name || 'an Error'} with no message`;
  if (error === undefined || error === null || error === '')
    return `agent "${agentId}" threw ${error === '' ? 'an empty string' : String(error)}`;
  return errorMessage(error);
}

function errored(ctx: ExecuteContext, duration_ms: number, error: string): Execution {
  return { run: ctx.run, status: 'error', duration_ms, error, assertions: [], metrics: {} };
}
