import type { Execution, Stability, StabilityClass } from './types/result.js';

/** The seed's classes: 100 stable, ≥80 mostly stable, ≥50 unstable, below that highly unstable. */
export function classify(passRate: number): StabilityClass {
  if (passRate >= 100) return 'stable';
  if (passRate >= 80) return 'mostly_stable';
  if (passRate >= 50) return 'unstable';
  return 'highly_unstable';
}

/**
 * The seed's stability block over a case's runs: pass_rate in percent, consistency = pass_rate/100,
 * population standard deviation of durations. Adds pass^k (all k runs pass) and a 95% Wilson interval,
 * because a pass rate from 3 runs says little on its own.
 */
export function computeStability(runs: readonly Execution[]): Stability {
  const n = runs.length;
  const passed = runs.filter((r) => r.status === 'passed').length;
  const durations = runs.map((r) => r.duration_ms);
  const avg = n ? durations.reduce((a, b) => a + b, 0) / n : 0;
  const variance = n ? durations.reduce((a, d) => a + (d - avg) ** 2, 0) / n : 0;
  const passRate = n ? (passed / n) * 100 : 0;
  return {
    runs: n,
    passed,
    failed: n - passed,
    pass_rate: round(passRate, 2),
    consistency: round(passRate / 100, 4),
    stable: passRate === 100,
    stability_class: classify(passRate),
    avg_duration_ms: round(avg, 2),
    min_duration_ms: n ? Math.min(...durations) : 0,
    max_duration_ms: n ? Math.max(...durations) : 0,
    std_deviation_ms: round(Math.sqrt(variance), 2),
    pass_hat_k: round(n ? (passed / n) ** n : 0, 4),
    pass_rate_ci: wilson(passed, n),
  };
}

/** 95% Wilson score interval, in percent. */
export function wilson(successes: number, n: number, z = 1.96): [number, number] {
  if (n === 0) return [0, 100];
  const p = successes / n;
  const denom = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denom;
  return [round(Math.max(0, centre - half) * 100, 1), round(Math.min(1, centre + half) * 100, 1)];
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
