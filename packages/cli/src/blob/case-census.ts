import { createHash, type Hash } from 'node:crypto';
import type { TestCase } from '@agentest/kernel';
import { safeStringify } from '@agentest/common';

/**
 * Counts the suite as the kernel selects from it, through the plan's `include`: the kernel asks it
 * about every case the `--run` filter matched, once in its check of the whole suite before the start
 * event (and again while it runs them). The first sighting of each case feeds a hash of the whole
 * suite, and the cases `include` takes are this shard's. By the start event both are complete.
 */
export class CaseCensus {
  private readonly seen = new Set<string>();
  private readonly hash: Hash = createHash('sha256');
  private digest?: string;
  readonly cases: string[] = [];
  readonly positions: number[] = [];

  /** Wraps the shard's own selection (all cases when the suite is not split). */
  wrap(include: ((testCase: TestCase) => boolean) | undefined): (testCase: TestCase) => boolean {
    return (testCase) => {
      const taken = include ? include(testCase) : true;
      if (!this.seen.has(testCase.id) && this.digest === undefined) {
        this.seen.add(testCase.id);
        this.hash.update(caseFingerprint(testCase));
        if (taken) {
          this.cases.push(testCase.id);
          this.positions.push(this.seen.size - 1);
        }
      }
      return taken;
    };
  }

  /** How many cases the whole suite holds, after `--run`. */
  get suiteCases(): number {
    return this.seen.size;
  }

  /** `sha256:` and the hex digest of every case seen, in suite order: final from its first call (the start event). */
  suiteHash(): string {
    this.digest ??= `sha256:${this.hash.digest('hex')}`;
    return this.digest;
  }
}

/** What makes a case the same case on every machine: its id, kind and what it sends and checks. */
function caseFingerprint(testCase: TestCase): string {
  const { id, kind, name, input, expected, assert, checkpoints, skip, todo } = testCase;
  return `${safeStringify({ id, kind, name, input, expected, assert, checkpoints, skip, todo })}\n`;
}
