import { errorMessage } from '@agentest/kernel/errors';
import { inheritRunScope } from '@agentest/kernel/run-scope';
import {
  type Agent,
  type AgentCallOptions,
  type AgentReply,
  type Execution,
  type Message,
  type TestContext,
} from '@agentest/kernel';
import { parseSimulatorReply, type SimulatorMove } from './simulator-reply.js';
import { simulatorRequest, type UserBrief } from './simulator-request.js';
import { assistantMessages, replyText } from './transcript.js';
import type { EndReason, TurnRecord } from '@agentest/report';

/** The conversation as it happened; kept up to date so that a timeout keeps what was said. */
export interface ConversationRecord {
  turns: TurnRecord[];
  /** Every message in order, as the agent received them, with its last reply. */
  transcript: Message[];
  end?: EndReason;
  /** What the simulator said when it declared its goal achieved, if anything. */
  final_message?: string;
  error?: string;
  /** When the turn being played began (`performance.now()`), so that a deadline can time it. */
  turnStarted?: number;
}

export interface ConversationOptions {
  agent: Agent;
  simulator: Agent;
  brief: UserBrief;
  /** The opening messages (the case's input); empty means the simulator speaks first. */
  initial: Message[];
  maxTurns: number;
  context: TestContext;
  signal: AbortSignal;
  call?: AgentCallOptions;
  /** Judges the reply of one turn: whether the conversation has what it needs, and what it reached. */
  afterTurn(turn: number, reply: AgentReply, execution: Execution): Promise<{ complete: boolean; reached?: string[] }>;
  /** Checkpoint ids reached and pending, for the simulator's brief (none without checkpoints). */
  progress?(): { reached: string[]; pending: string[] };
  record?: ConversationRecord;
}

/**
 * Plays a conversation between a simulated user and the agent, as Yao's dynamic runner does: on
 * turn 1 a non-empty input is the user's first message (no simulator call); on every other turn
 * the simulator speaks first. After each agent reply `afterTurn` judges it; the conversation ends
 * when it is complete, when the simulator says its goal is achieved, after `maxTurns` agent replies,
 * or at the first error. Every call gets the run's signal, so a deadline stops a call mid-way (W3).
 */
export async function converse(options: ConversationOptions): Promise<ConversationRecord> {
  const stepper = new ConversationStepper(options);
  while (!(await stepper.step(options.afterTurn))) {
    /* one turn per step */
  }
  return stepper.record;
}

/** One agent turn, judged: whether the conversation has what it needs, and what it reached. */
export type TurnJudge = ConversationOptions['afterTurn'];

/**
 * The conversation one turn at a time, for callers that decide between turns themselves (a
 * `test()` file's `until`): `step` plays the next turn and says whether the conversation ended.
 */
export class ConversationStepper {
  readonly record: ConversationRecord;
  private turn = 0;
  /** The simulator's calls are the run's, as a simulated user's: metered and recorded apart from the agent's. */
  private simulatorSignal?: AbortSignal;

  constructor(private readonly options: Omit<ConversationOptions, 'afterTurn'>) {
    this.record = options.record ?? { turns: [], transcript: [] };
    this.record.transcript.push(...options.initial);
  }

  /** Plays one turn; answers true when the conversation has ended (`record.end` says why). */
  async step(afterTurn?: TurnJudge): Promise<boolean> {
    const { options, record } = this;
    if (record.end) return true;
    const turn = ++this.turn;
    if (turn > options.maxTurns) {
      record.end = 'max_turns';
      return true;
    }
    const conversation = record.transcript;
    const started = (record.turnStarted = performance.now());
    const opening = turn === 1 && options.initial.length > 0;
    const entry: TurnRecord = { turn, input: null, from: opening ? 'input' : 'simulator', duration_ms: 0 };
    record.turns.push(entry);
    if (opening) entry.input = messageText(options.initial.at(-1)!);
    else {
      this.simulatorSignal ??= inheritRunScope(AbortSignal.any([options.signal]), options.signal, 'simulator');
      const move = await askSimulator(options, conversation, turn, entry, this.simulatorSignal);
      entry.simulator_ms = round(performance.now() - started);
      if (move.kind === 'error') return finish(record, entry, started, 'simulator_error', move.error);
      if (move.move.reasoning) entry.reasoning = move.move.reasoning;
      if (move.move.kind === 'done') {
        // The user is done: this turn has no agent call (it counts toward max_turns, as in Yao).
        if (move.move.message) record.final_message = entry.input = move.move.message;
        entry.duration_ms = entry.simulator_ms;
        record.end = 'goal_achieved';
        return true;
      }
      entry.input = move.move.message;
      conversation.push({ role: 'user', content: move.move.message });
    }
    const agentStarted = performance.now();
    let reply: AgentReply;
    try {
      reply = await options.agent.run([...conversation], options.context, options.signal, options.call);
    } catch (error) {
      if (options.signal.aborted) throw error;
      entry.agent_ms = round(performance.now() - agentStarted);
      return finish(record, entry, started, 'agent_error', `agent error at turn ${turn}: ${errorMessage(error)}`);
    }
    entry.agent_ms = round(performance.now() - agentStarted);
    entry.duration_ms = round(performance.now() - started);
    entry.output = reply.content;
    if (reply.toolCalls?.length) entry.tool_calls = reply.toolCalls;
    conversation.push(...assistantMessages(reply, turn));
    if (!afterTurn) return this.endAtLimit(turn);
    const judged = await afterTurn(turn, reply, turnExecution(reply, entry.agent_ms));
    if (judged.reached?.length) entry.checkpoints_reached = judged.reached;
    if (judged.complete) {
      record.end = 'completed';
      return true;
    }
    return this.endAtLimit(turn);
  }

  private endAtLimit(turn: number): boolean {
    if (turn < this.options.maxTurns) return false;
    this.record.end = 'max_turns';
    return true;
  }
}

/** A turn's reply as assertions see a run: output, tool calls, the reply itself. */
function turnExecution(reply: AgentReply, duration_ms: number): Execution {
  return {
    run: 1,
    status: 'passed',
    duration_ms,
    output: reply.content,
    assertions: [],
    metrics: {},
    reply,
    ...(reply.toolCalls ? { tool_calls: reply.toolCalls } : {}),
  };
}

type Asked = { kind: 'move'; move: SimulatorMove } | { kind: 'error'; error: string };

async function askSimulator(
  options: Omit<ConversationOptions, 'afterTurn'>,
  conversation: readonly Message[],
  turn: number,
  entry: TurnRecord,
  signal: AbortSignal,
): Promise<Asked> {
  const { reached, pending } = options.progress?.() ?? { reached: [], pending: [] };
  const request = simulatorRequest(options.brief, {
    conversation,
    turn,
    maxTurns: options.maxTurns,
    reached,
    pending,
  });
  // Each call has a chat id of its own (Yao shares one "simulator" chat across every case, W10).
  const context = {
    ...options.context,
    chat_id: `${options.context.chat_id}-simulator-${turn}`,
    assistant_id: options.simulator.id,
  };
  let reply: AgentReply;
  try {
    reply = await options.simulator.run([request], context, signal, {});
  } catch (error) {
    if (options.signal.aborted) throw error;
    return {
      kind: 'error',
      error: `simulator "${options.simulator.id}" failed at turn ${turn}: ${errorMessage(error)}`,
    };
  }
  try {
    return { kind: 'move', move: parseSimulatorReply(reply) };
  } catch (error) {
    entry.output = undefined;
    return { kind: 'error', error: `simulator "${options.simulator.id}" at turn ${turn}: ${errorMessage(error)}` };
  }
}

function finish(record: ConversationRecord, entry: TurnRecord, started: number, end: EndReason, error: string): true {
  entry.duration_ms = round(performance.now() - started);
  entry.error = error;
  record.end = end;
  record.error = error;
  return true;
}

function messageText(message: Message): string {
  return replyText(message.content);
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}
