import type { CaseChange, SuiteVerdict } from './comparison.js';
import { mcnemar, pairedBootstrap, type PairedRuns } from './stats/index.js';

export interface VerdictOptions {
  alpha: number;
  margin: number;
  seed: number;
  resamples?: number;
}

/**
 * The suite's verdict over the cases that ran on both sides. One run a side: McNemar on the
 * discordant cases (two-sided; a regression when significant with more regressed than fixed).
 * Several runs: the two-level paired bootstrap, a regression only when the whole interval of the
 * pass-rate difference lies below −margin. The bootstrap interval is reported either way.
 */
export function suiteVerdict(
  changes: readonly CaseChange[],
  pairs: readonly PairedRuns[],
  options: VerdictOptions,
): SuiteVerdict {
  const { alpha, margin } = options;
  const difference = pairedBootstrap(pairs, {
    seed: options.seed,
    level: 1 - alpha,
    ...(options.resamples ? { resamples: options.resamples } : {}),
  });
  const common = { alpha, margin, paired: pairs.length, difference };
  if (pairs.every((p) => p.base.length === 1 && p.head.length === 1)) {
    const regressed = changes.filter((c) => c.category === 'regressed').length;
    const fixed = changes.filter((c) => c.category === 'fixed').length;
    const test = mcnemar(regressed, fixed);
    const significant = test.p < alpha && regressed !== fixed;
    const verdict = significant ? (regressed > fixed ? 'regressed' : 'improved') : 'no_significant_change';
    const form = test.method === 'exact' ? 'exact McNemar' : 'McNemar χ² with continuity correction';
    const reason = `${regressed} regressed, ${fixed} fixed of ${pairs.length} cases: ${form} p = ${formatP(test.p)} ${significant ? '<' : '≥'} α ${alpha}`;
    return { verdict, method: 'mcnemar', reason, mcnemar: test, ...common };
  }
  const level = `${Math.round((1 - alpha) * 1000) / 10}%`;
  const bound = margin === 0 ? '0' : `−${points(margin, false)} points`;
  const interval = `pass rate ${points(difference.estimate)} points, ${level} interval [${points(difference.lower)}, ${points(difference.upper)}]`;
  if (difference.upper < -margin)
    return {
      verdict: 'regressed',
      method: 'bootstrap',
      reason: `${interval}: entirely below ${bound} (the margin)`,
      ...common,
    };
  if (difference.lower > margin)
    return {
      verdict: 'improved',
      method: 'bootstrap',
      reason: `${interval}: entirely above ${margin === 0 ? '0' : `+${points(margin, false)} points`} (the margin)`,
      ...common,
    };
  return {
    verdict: 'no_significant_change',
    method: 'bootstrap',
    reason: `${interval}: not entirely below ${bound} (the margin)`,
    ...common,
  };
}

/** A fraction as signed percentage points: −0.125 → "−12.5". */
export function points(fraction: number, signed = true): string {
  const value = Math.round(fraction * 1000) / 10;
  const text = Math.abs(value).toFixed(1);
  if (!signed) return text;
  return value > 0 ? `+${text}` : value < 0 ? `−${text}` : text;
}

export function formatP(p: number): string {
  if (p < 0.0001) return '< 0.0001';
  return String(Number(p.toPrecision(p >= 0.1 ? 2 : 3)));
}
