import type { CaseResult, CaseRobustness, NotFuzzedCase, Status } from '@agentest/kernel';
import type { FuzzMark, NotFuzzed } from './fuzz-suite.js';

/**
 * Robustness per case, from the results as they come: each original's verdict next to the pass
 * rate of its variants, and the variants that did not pass (what they were sent, and why they
 * failed). Only cases that had variants are listed, in the order their originals finished; the
 * others are listed apart, with why they had none.
 */
export class RobustnessTally {
  private readonly originals = new Map<string, Status>();
  private readonly variants = new Map<string, CaseResult[]>();

  add(result: CaseResult): void {
    const mark = result.metadata?.fuzz as FuzzMark | undefined;
    if (!mark) {
      this.originals.set(result.id, result.status);
      return;
    }
    const list = this.variants.get(mark.of) ?? [];
    list.push(result);
    this.variants.set(mark.of, list);
  }

  summary(): CaseRobustness[] {
    const out: CaseRobustness[] = [];
    for (const [id, original] of this.originals) {
      const variants = this.variants.get(id);
      if (!variants?.length) continue;
      const passed = variants.filter((v) => v.status === 'passed').length;
      const broken = variants
        .filter((v) => v.status !== 'passed' && v.status !== 'skipped')
        .sort((a, b) => markOf(a).variant - markOf(b).variant)
        .map((v) => ({
          id: v.id,
          perturbation: markOf(v).perturbation,
          input: v.input,
          status: v.status,
          ...(v.error ? { error: v.error } : {}),
        }));
      out.push({
        id,
        original,
        variants: variants.length,
        passed,
        pass_rate: Math.round((passed / variants.length) * 10_000) / 10_000,
        ...(broken.length ? { broken } : {}),
      });
    }
    return out;
  }

  /** The cases that ran without variants, in the order they finished, each with why. */
  notFuzzed(reasons: NotFuzzed): NotFuzzedCase[] {
    return [...this.originals.keys()].flatMap((id) => {
      const reason = reasons.get(id);
      return reason === undefined ? [] : [{ id, reason }];
    });
  }
}

function markOf(result: CaseResult): FuzzMark {
  return result.metadata!.fuzz as FuzzMark;
}
