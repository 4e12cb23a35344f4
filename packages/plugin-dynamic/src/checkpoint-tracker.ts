import type { AssertionResult, Checkpoint, Execution } from '@agentest/kernel';
import type { CheckpointResult } from '@agentest/report';

/** Judges a reply with assertions, as the kernel judges a case's own (`ExecuteContext.assert`). */
export type Judge = (
  assertions: Checkpoint['assert'],
  output: unknown,
  execution: Execution,
) => Promise<AssertionResult[]>;

/**
 * The checkpoints of one conversation. After each agent turn, every unreached checkpoint whose
 * `after` list is reached is judged on that turn's reply; a checkpoint reached this turn unblocks
 * the ones waiting for it in the same turn, whatever their order in the file (Yao depends on array
 * order, W7). A checkpoint whose dependencies are not reached is not judged that turn: a match
 * before its turn earns nothing (as in Yao), and it can still be reached on a later turn. A reached
 * checkpoint is never judged again.
 */
export class CheckpointTracker {
  readonly results: CheckpointResult[];

  constructor(private readonly checkpoints: readonly Checkpoint[]) {
    this.results = checkpoints.map((c) => ({ id: c.id, required: c.required, reached: false }));
  }

  /** Judges the reply of `turn`; returns the ids it reached, in definition order. */
  async evaluate(turn: number, output: unknown, execution: Execution, judge: Judge): Promise<string[]> {
    const reached: string[] = [];
    const judged = new Set<number>();
    for (let progress = true; progress;) {
      progress = false;
      for (const [i, checkpoint] of this.checkpoints.entries()) {
        const result = this.results[i]!;
        if (result.reached || judged.has(i) || !this.unblocked(checkpoint)) continue;
        judged.add(i);
        const assertions = checkpoint.assert.length ? await judge(checkpoint.assert, output, execution) : [];
        this.record(result, turn, assertions);
        if (result.reached) {
          reached.push(checkpoint.id);
          progress = true;
        }
      }
    }
    return reached.sort((a, b) => this.indexOf(a) - this.indexOf(b));
  }

  /** Ids reached so far and ids still pending, in definition order. */
  progress(): { reached: string[]; pending: string[] } {
    return {
      reached: this.results.filter((r) => r.reached).map((r) => r.id),
      pending: this.results.filter((r) => !r.reached).map((r) => r.id),
    };
  }

  allRequiredReached(): boolean {
    return this.results.every((r) => r.reached || !r.required);
  }

  /** The required checkpoints not reached, each with what it still waits for; `waiting_for` is recorded on them. */
  missing(): CheckpointResult[] {
    const missing = this.results.filter((r) => r.required && !r.reached);
    for (const result of this.results) {
      if (result.reached) continue;
      const waiting = this.checkpoints[this.indexOf(result.id)]!.after.filter((dep) => !this.isReached(dep));
      if (waiting.length) result.waiting_for = waiting;
    }
    return missing;
  }

  private record(result: CheckpointResult, turn: number, assertions: AssertionResult[]): void {
    const failed = assertions.filter((a) => !a.pass);
    result.assertions = assertions;
    if (!failed.length) {
      result.reached = true;
      result.reached_at_turn = turn;
      delete result.error;
      const passed = assertions.map((a) => a.message).filter(Boolean);
      if (passed.length) result.message = passed.join('; ');
      else delete result.message;
      return;
    }
    const unjudged = failed.find((a) => a.error !== undefined);
    if (unjudged) result.error = unjudged.message ?? unjudged.error;
    else delete result.error;
    result.message = failed.map((a) => a.message ?? `${a.type} assertion failed`).join('; ');
  }

  private unblocked(checkpoint: Checkpoint): boolean {
    return checkpoint.after.every((dep) => this.isReached(dep));
  }

  private isReached(id: string): boolean {
    return this.results[this.indexOf(id)]?.reached === true;
  }

  private indexOf(id: string): number {
    return this.checkpoints.findIndex((c) => c.id === id);
  }
}
