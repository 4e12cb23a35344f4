import { formatMetric, isMaxMetric, type FormatMetricOptions } from '@agentest/kernel';

/**
 * The one reading of a metric's name: `_rate` is a 0–1 fraction shown as a percentage, `_ms` a
 * latency in milliseconds whose threshold is a maximum, anything else a plain number whose
 * threshold is a minimum. Every report, the verdict's messages and the kit's print API read metric
 * names through these functions, so they cannot disagree. `isMaxMetric` and `formatMetric` are
 * defined once beside the kernel's other rules on metric names (the verdict it judges uses them)
 * and are the report model's API from here.
 */
export { formatMetric, isMaxMetric, type FormatMetricOptions } from '@agentest/kernel';

/** `≤` for a maximum, `≥` for a minimum. */
export function thresholdSign(name: string): '≤' | '≥' {
  return isMaxMetric(name) ? '≤' : '≥';
}

/** `≥72.0%` or `≤500ms`: the direction and the limit of a threshold. */
export function formatBound(name: string, limit: number, options: FormatMetricOptions = {}): string {
  return `${thresholdSign(name)}${formatMetric(name, limit, options)}`;
}

/** Whether `value` meets the threshold `limit` on `name` (a limit is met exactly at its value). */
export function meetsThreshold(name: string, value: number, limit: number): boolean {
  return isMaxMetric(name) ? value <= limit : value >= limit;
}
