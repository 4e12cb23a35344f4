import type { CallRole } from '@agentest/kernel';

/** What is recorded: a model call (connector boundary) or a tool call (MCP tool boundary). */
export type CallKind = 'model' | 'tool';

/**
 * Where a call sits in its case: who made it, in which run and turn, and the how-manieth call of
 * that kind it was. With the request's hash this is the key, so `--runs 5` replays five distinct
 * samples and a judge's call never answers the agent's.
 */
export interface CallPosition {
  kind: CallKind;
  role: CallRole;
  run: number;
  turn: number;
  call: number;
}

/** One streamed chunk, `t` milliseconds after the request was sent. */
export interface RecordedChunk {
  t: number;
  data: unknown;
}

/** One line of a cassette file. */
export interface CassetteEntry extends CallPosition {
  case: string;
  /** The connector id, or the tool's server. */
  source: string;
  sha: string;
  /** How long the call took when recorded, for `--replay-timing`. */
  ms: number;
  request: unknown;
  /** A whole reply (a model's body, a tool's result). */
  reply?: unknown;
  /** A streamed reply, chunk by chunk. */
  chunks?: RecordedChunk[];
  /** A tool call that failed: its error text (model calls that fail are never recorded). */
  error?: string;
  /** The case's clock when it was recorded, when its prompts read one (`$SYS.DATE`); replay reads the same time. */
  clock?: string;
}

const POSITION: readonly (keyof CallPosition)[] = ['kind', 'role', 'run', 'turn', 'call'];

export function samePosition(a: CallPosition, b: CallPosition): boolean {
  return POSITION.every((field) => a[field] === b[field]);
}

/** The position fields in which a stored call differs from the wanted one, as `field: stored → wanted`. */
export function positionDifference(wanted: CallPosition, stored: CallPosition): string[] {
  return POSITION.filter((field) => wanted[field] !== stored[field]).map(
    (field) => `${field}: ${stored[field]} → ${wanted[field]}`,
  );
}

export function describePosition(p: CallPosition): string {
  return `${p.role} ${p.kind} call ${p.call} of run ${p.run}${p.turn ? `, turn ${p.turn}` : ''}`;
}
