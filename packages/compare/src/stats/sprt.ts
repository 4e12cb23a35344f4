/** Wald's sequential probability ratio test for one case's pass rate. */
export interface SprtOptions {
  /** Pass rate of a healthy case, H₀ (default 0.9). */
  p0?: number;
  /** Pass rate of a degraded case, H₁ (default 0.6). */
  p1?: number;
  /** Chance of flagging a healthy case (default 0.05). */
  alpha?: number;
  /** Chance of accepting a degraded case (default 0.2). */
  beta?: number;
}

export type SprtDecision = 'accept' | 'flag' | 'continue';

export interface Sprt {
  /** ln((1−β)/α): flag once the log-likelihood ratio reaches it. */
  readonly upper: number;
  /** ln(β/(1−α)): accept once the log-likelihood ratio falls to it. */
  readonly lower: number;
  llr(passes: number, failures: number): number;
  decide(passes: number, failures: number): SprtDecision;
}

/** Rounding must not move a boundary that the exact arithmetic reaches (2·ln 4 = ln 16). */
const TOLERANCE = 1e-9;

/**
 * After s passes and f failures, LLR = s·ln(p₁/p₀) + f·ln((1−p₁)/(1−p₀)). Flag (accept H₁) when
 * LLR ≥ ln((1−β)/α), accept H₀ when LLR ≤ ln(β/(1−α)), otherwise run again. With p₀ 0.95, p₁ 0.80,
 * α 0.05, β 0.2 a case is accepted after 10 straight passes; with the defaults (p₀ 0.9, p₁ 0.6)
 * after 4. Never re-check a fixed-n p-value as runs arrive instead: that inflates false alarms.
 */
export function sprt(options: SprtOptions = {}): Sprt {
  const { p0 = 0.9, p1 = 0.6, alpha = 0.05, beta = 0.2 } = options;
  if (!(p1 < p0 && p0 < 1 && p1 > 0)) throw new RangeError(`SPRT needs 0 < p1 < p0 < 1, got p0 ${p0}, p1 ${p1}`);
  const passWeight = Math.log(p1 / p0);
  const failWeight = Math.log((1 - p1) / (1 - p0));
  const upper = Math.log((1 - beta) / alpha);
  const lower = Math.log(beta / (1 - alpha));
  const llr = (passes: number, failures: number) => passes * passWeight + failures * failWeight;
  return {
    upper,
    lower,
    llr,
    decide(passes, failures) {
      const value = llr(passes, failures);
      if (value >= upper - TOLERANCE) return 'flag';
      if (value <= lower + TOLERANCE) return 'accept';
      return 'continue';
    },
  };
}
