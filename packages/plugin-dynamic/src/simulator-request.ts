import { goJsonEscape } from '@agentest/common';
import type { Message } from '@agentest/kernel';

/** The simulated user's brief: who it is, what it wants, and anything else the case passes on. */
export interface UserBrief {
  persona?: string;
  goal?: string;
  extra?: Record<string, unknown>;
}

/** Where the conversation stands when the simulator is asked for the next user message. */
export interface SimulatorProgress {
  conversation: readonly Message[];
  turn: number;
  maxTurns: number;
  reached: readonly string[];
  pending: readonly string[];
}

/**
 * The one user message a simulator receives each turn, as Yao builds it: a JSON object with
 * `persona`, `goal`, `conversation`, `turn_number`, `max_turns`, `checkpoints_reached`,
 * `checkpoints_pending` and `extra`, in that order, with `<`, `>` and `&` escaped as Go escapes them.
 * Checkpoint ids are listed in definition order (Yao's are in random order, W7); empty lists and
 * absent fields are left out.
 */
export function simulatorRequest(brief: UserBrief, progress: SimulatorProgress): Message {
  const payload = {
    ...(brief.persona !== undefined ? { persona: brief.persona } : {}),
    ...(brief.goal !== undefined ? { goal: brief.goal } : {}),
    conversation: progress.conversation,
    turn_number: progress.turn,
    max_turns: progress.maxTurns,
    ...(progress.reached.length ? { checkpoints_reached: progress.reached } : {}),
    ...(progress.pending.length ? { checkpoints_pending: progress.pending } : {}),
    ...(brief.extra && Object.keys(brief.extra).length ? { extra: brief.extra } : {}),
  };
  return { role: 'user', content: goJsonEscape(JSON.stringify(payload)) };
}

/** A case's `simulator.options.metadata` as a brief: string persona and goal, every other key in `extra`. */
export function briefFromMetadata(metadata: Record<string, unknown>): UserBrief {
  const { persona, goal, ...extra } = metadata;
  return {
    ...(typeof persona === 'string' ? { persona } : {}),
    ...(typeof goal === 'string' ? { goal } : {}),
    ...(Object.keys(extra).length ? { extra } : {}),
  };
}
