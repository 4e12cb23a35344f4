import {
  conversationSummary,
  displayValue,
  dynamicOf,
  formatDuration,
  truncate,
  type ReadonlyResult,
} from '@agentest/report';

/** A dynamic case's conversation as the page draws it: a bubble per message, checkpoints marked where reached. */
export interface ConversationData {
  summary: string;
  turns: {
    turn: number;
    from: 'input' | 'simulator';
    user?: string;
    agent?: string;
    error?: string;
    duration: string;
    reached: string[];
  }[];
  /** What the simulated user said when it ended the conversation. */
  final?: string;
  checkpoints: { id: string; reached: boolean; required: boolean; detail: string }[];
}

export function conversationData(result: ReadonlyResult, limit: number): ConversationData | undefined {
  const d = dynamicOf(result);
  if (!d) return undefined;
  return {
    summary: conversationSummary(d),
    turns: d.turns.map((t) => ({
      turn: t.turn,
      from: t.from,
      ...(t.input !== null ? { user: truncate(t.input, limit) } : {}),
      ...(t.output !== undefined ? { agent: truncate(displayValue(t.output), limit) } : {}),
      ...(t.error ? { error: truncate(t.error, limit) } : {}),
      duration: formatDuration(t.duration_ms),
      reached: [...(t.checkpoints_reached ?? [])],
    })),
    ...(d.final_message ? { final: truncate(d.final_message, limit) } : {}),
    checkpoints: d.checkpoints.map((c) => ({
      id: c.id,
      reached: c.reached,
      required: c.required,
      detail: c.reached
        ? `turn ${c.reached_at_turn}`
        : c.waiting_for?.length
          ? `waiting for ${c.waiting_for.join(', ')}`
          : truncate(c.error ?? c.message ?? 'not reached', limit),
    })),
  };
}
