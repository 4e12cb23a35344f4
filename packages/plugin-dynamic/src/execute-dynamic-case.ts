import { errorMessage } from '@agentest/kernel/errors';
import {
  type Agent,
  type DynamicCaseData,
  type ExecuteContext,
  type Execution,
  type HelperUse,
  type RunPlan,
  type TestCase,
} from '@agentest/kernel';
import type { CheckpointResult, DynamicDetails } from '@agentest/report';
import { CheckpointTracker } from './checkpoint-tracker.js';
import { converse, type ConversationRecord } from './conversation.js';
import { briefFromMetadata } from './simulator-request.js';

/**
 * The simulated user a dynamic case will talk through, so that the run finds it before any case; the
 * message names `--simulator` too when it is the same id (the case may have it from there).
 */
export function dynamicCaseSimulator(testCase: TestCase, plan: RunPlan): HelperUse[] {
  const simulator = (testCase.data as { dynamic?: DynamicCaseData } | undefined)?.dynamic?.simulator;
  if (!simulator) return [];
  return [
    {
      role: 'simulator',
      use: `"${simulator.use}"${plan.simulator?.replace(/^agents:/, '') === simulator.use ? ' (--simulator)' : ''}`,
      ref: { id: simulator.use, ...(simulator.connector ? { connector: simulator.connector } : {}) },
    },
  ];
}

/**
 * The `dynamic` executor: a simulated user talks to the suite's agent until every required
 * checkpoint is reached (passed), the user says its goal is achieved or `max_turns` agent replies
 * are spent with a required checkpoint missing (failed), or a call fails (error). A required
 * checkpoint that could not be judged (its assertion errored) makes an unfinished case an error,
 * never a failure. The conversation so far is kept when the deadline stops it.
 */
export async function executeDynamicCase(testCase: TestCase, ctx: ExecuteContext): Promise<Execution> {
  const started = performance.now();
  const data = (testCase.data as { dynamic?: DynamicCaseData } | undefined)?.dynamic;
  if (!data || !testCase.checkpoints?.length)
    return errored(ctx, started, `case "${testCase.id}" is not a dynamic case: it needs a simulator and checkpoints`);
  if (!ctx.agent)
    return errored(ctx, started, `case "${testCase.id}" needs an agent and none was resolved; pass -n <agent-id>`);
  let simulator: Agent;
  try {
    simulator = await ctx.resolveAgent({
      id: data.simulator.use,
      ...(data.simulator.connector ? { connector: data.simulator.connector } : {}),
    });
  } catch (error) {
    return errored(ctx, started, `simulator "${data.simulator.use}" could not be loaded: ${errorMessage(error)}`);
  }
  const tracker = new CheckpointTracker(testCase.checkpoints);
  const record: ConversationRecord = { turns: [], transcript: [] };
  const details: DynamicDetails = {
    simulator: simulator.id,
    max_turns: data.max_turns,
    total_turns: 0,
    turns: record.turns,
    checkpoints: tracker.results,
    transcript: record.transcript,
  };
  const opensItself = testCase.input === null || testCase.input === undefined;
  await untilDeadline(ctx, details, record, opensItself, () =>
    converse({
      agent: ctx.agent!,
      simulator,
      brief: briefFromMetadata(data.simulator.metadata),
      initial: testCase.messages,
      maxTurns: data.max_turns,
      context: ctx.context,
      signal: ctx.signal,
      call: { options: testCase.options, testCase },
      record,
      progress: () => tracker.progress(),
      afterTurn: async (turn, reply, execution) => {
        const reached = await tracker.evaluate(turn, reply.content, execution, (assertions, output, run) =>
          ctx.assert(assertions, output, run),
        );
        return { complete: tracker.allRequiredReached(), reached };
      },
    }),
  );
  details.end_reason = record.end!;
  details.total_turns = answeredTurns(details);
  if (record.final_message) details.final_message = record.final_message;
  return {
    run: ctx.run,
    duration_ms: performance.now() - started,
    ...spoken(details, opensItself),
    ...verdict(record, tracker),
    assertions: tracker.results.flatMap((c) => c.assertions ?? []),
    metrics: {},
    details: { dynamic: details },
  };
}

/** Plays the conversation; if the run's deadline stops it, what `ctx.partial` holds is the conversation so far. */
async function untilDeadline(
  ctx: ExecuteContext,
  details: DynamicDetails,
  record: ConversationRecord,
  opensItself: boolean,
  play: () => Promise<unknown>,
): Promise<void> {
  const partial = (ctx.partial = { details: { dynamic: details } });
  const atDeadline = () => keepAtDeadline(details, partial, record.turnStarted, opensItself);
  ctx.signal.addEventListener('abort', atDeadline, { once: true });
  try {
    await play();
  } finally {
    ctx.signal.removeEventListener('abort', atDeadline);
  }
}

/** Agent replies in the conversation (a failed agent call counts, as in Yao). */
function answeredTurns(details: DynamicDetails): number {
  return details.turns.filter((t) => t.agent_ms !== undefined).length;
}

/**
 * The last reply, as the output; and for a case written without an input, turn 1's message (the
 * simulated user's first) as its input, as Yao reports it. Either is left out when there is none.
 */
function spoken(details: DynamicDetails, opensItself: boolean): Pick<Execution, 'output' | 'input'> {
  const said: Pick<Execution, 'output' | 'input'> = {};
  const output = lastReply(details);
  if (output !== undefined) said.output = output;
  const input = opensItself ? details.turns[0]?.input : undefined;
  if (input !== undefined && input !== null) said.input = input;
  return said;
}

function lastReply(details: DynamicDetails): unknown {
  return [...details.turns].reverse().find((t) => t.output !== undefined)?.output;
}

/**
 * When the run's deadline stops the conversation mid-call, the kernel reports what `partial` holds:
 * make that the conversation so far — its replies counted, the last one as the output, and the
 * turn the deadline cut short marked as such — rather than an empty count and no output.
 */
function keepAtDeadline(
  details: DynamicDetails,
  partial: NonNullable<ExecuteContext['partial']>,
  turnStarted: number | undefined,
  opensItself: boolean,
): void {
  details.total_turns = answeredTurns(details);
  Object.assign(partial, spoken(details, opensItself));
  const cut = details.turns.at(-1);
  if (cut && cut.agent_ms === undefined && cut.error === undefined) {
    if (turnStarted !== undefined) cut.duration_ms = Math.round((performance.now() - turnStarted) * 100) / 100;
    cut.error = `stopped at the deadline (${cut.input === null ? 'waiting for the simulator' : 'waiting for the agent'})`;
  }
}

function verdict(record: ConversationRecord, tracker: CheckpointTracker): Pick<Execution, 'status' | 'error'> {
  if (record.error) return { status: 'error', error: record.error };
  if (record.end === 'completed') return { status: 'passed' };
  const missing = tracker.missing();
  const unjudged = missing.find((c) => c.error);
  const pending = missing.map(describeMissing).join('; ');
  const why =
    record.end === 'goal_achieved'
      ? `the simulated user ended the conversation at turn ${record.turns.length} (goal achieved) before every required checkpoint was reached`
      : `max turns (${record.turns.length}) exceeded without reaching all checkpoints`;
  if (unjudged) return { status: 'error', error: `${why}; "${unjudged.id}" could not be judged: ${unjudged.error}` };
  return { status: 'failed', error: `${why}: ${pending}` };
}

function describeMissing(c: CheckpointResult): string {
  if (c.waiting_for?.length)
    return `"${c.id}" not reached (waiting for ${c.waiting_for.map((id) => `"${id}"`).join(', ')})`;
  return c.message ? `"${c.id}" not reached (${c.message})` : `"${c.id}" not reached`;
}

function errored(ctx: ExecuteContext, started: number, error: string): Execution {
  return {
    run: ctx.run,
    status: 'error',
    duration_ms: performance.now() - started,
    error,
    assertions: [],
    metrics: {},
  };
}
