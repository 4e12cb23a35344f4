import type { AssertionResult, DeepReadonly, Execution, Message } from '@agentest/kernel';
import type { ReadonlyResult } from './report.js';

/** Why a simulated conversation stopped. */
export type EndReason = 'completed' | 'goal_achieved' | 'max_turns' | 'simulator_error' | 'agent_error';

/** One turn of a dynamic case: the user's message (the case input or the simulator's), the reply, their times. */
export interface TurnRecord {
  turn: number;
  /** What the user said; null when the simulator failed before saying anything. */
  input: string | null;
  /** Who spoke for the user: the case input (turn 1) or the simulator. */
  from: 'input' | 'simulator';
  output?: unknown;
  /** From the start of the turn (the simulator's call included) to the agent's reply. */
  duration_ms: number;
  simulator_ms?: number;
  agent_ms?: number;
  checkpoints_reached?: string[];
  tool_calls?: Execution['tool_calls'];
  /** The simulator's own explanation of its move, when it gave one. */
  reasoning?: string;
  error?: string;
}

/** One checkpoint of a dynamic case, as the result shows it. */
export interface CheckpointResult {
  id: string;
  required: boolean;
  reached: boolean;
  /** The turn whose reply reached it. */
  reached_at_turn?: number;
  /** The assertion results of the evaluation that reached it, or of its last evaluation. */
  assertions?: AssertionResult[];
  /** Why its last evaluation failed while it was not reached, or what it passed with. */
  message?: string;
  /** When it was never reached: the checkpoints in its `after` list that were not reached either. */
  waiting_for?: string[];
  /** Its last evaluation could not judge the reply (an assertion error): not a failure to reach it. */
  error?: string;
}

/** What a dynamic run records in `execution.details.dynamic`: the whole conversation and every checkpoint. */
export interface DynamicDetails {
  simulator: string;
  max_turns: number;
  /** Agent replies in the conversation. */
  total_turns: number;
  /** Why the conversation stopped; absent when the run's deadline stopped it. */
  end_reason?: EndReason;
  turns: TurnRecord[];
  checkpoints: CheckpointResult[];
  /** Every message in order, as the agent received them, with its last reply. */
  transcript: Message[];
  /** What the simulator said when it declared its goal achieved, if anything. */
  final_message?: string;
}

/** A dynamic case's conversation, from the run the report shows (the first run with the case's status). */
export function dynamicOf(result: ReadonlyResult): DeepReadonly<DynamicDetails> | undefined {
  const run = result.runs.find((r) => r.status === result.status) ?? result.runs[0];
  return run && dynamicOfRun(run);
}

/** One run's conversation, when the run is a dynamic case's. */
export function dynamicOfRun(run: ReadonlyResult['runs'][number]): DeepReadonly<DynamicDetails> | undefined {
  const details = run.details?.dynamic as DeepReadonly<DynamicDetails> | undefined;
  return details && Array.isArray(details.turns) && Array.isArray(details.checkpoints) ? details : undefined;
}

const END_TEXT: Record<EndReason, string> = {
  completed: 'every required checkpoint reached',
  goal_achieved: 'the simulated user ended it',
  max_turns: 'max turns reached',
  simulator_error: 'the simulator failed',
  agent_error: 'the agent failed',
};

/** `3 turns (max 8), every required checkpoint reached · checkpoints 2/3: greeting@1 ask_size@2 confirm ✗` */
export function conversationSummary(d: DeepReadonly<DynamicDetails>): string {
  const reached = d.checkpoints.filter((c) => c.reached).length;
  const ends = d.end_reason ? END_TEXT[d.end_reason] : 'stopped at the deadline';
  const marks = d.checkpoints
    .map((c) => (c.reached ? `${c.id}@${c.reached_at_turn}` : `${c.id} ${c.required ? '✗' : '(optional) –'}`))
    .join(' ');
  return `${d.total_turns} turn${d.total_turns === 1 ? '' : 's'} (max ${d.max_turns}), ${ends} · checkpoints ${reached}/${d.checkpoints.length}: ${marks}`;
}
