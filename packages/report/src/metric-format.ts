/**
 * The one reading of a metric's name: `_rate` (and `coverage_`) is a 0–1 fraction shown as a percentage, `_ms` a
 * latency in milliseconds whose threshold is a maximum, anything else a plain number whose
 * threshold is a minimum. Every report, the verdict's messages and the kit's print API read metric
 * names through these functions, so they cannot disagree.
 */

/** `name` is a share from 0 to 1 (a rate, a coverage), shown and written as a percentage. */
export function isShareMetric(name: string): boolean {
  return name.endsWith('_rate') || name.startsWith('coverage_');
}

/** A threshold on `name` is a maximum (latencies, `_ms`) rather than a minimum. */
export function isMaxMetric(name: string): boolean {
  return name.endsWith('_ms');
}

export interface FormatMetricOptions {
  /** Plain numbers with exactly this many decimals (agentest-kit's `4.20`); default: up to four, no trailing zeros. */
  decimals?: number;
}

/**
 * The one way a metric reads, by its name: `_rate` and `coverage_` a 0–1 fraction as a percentage
 * (`72.0%`), `_ms` a latency in whole milliseconds (`1234ms`), anything else up to four decimals.
 */
export function formatMetric(name: string, value: number, options: FormatMetricOptions = {}): string {
  if (isShareMetric(name)) return `${Number.isFinite(value) ? (value * 100).toFixed(1) : '0.0'}%`;
  if (isMaxMetric(name)) return `${Math.round(value)}ms`;
  if (options.decimals !== undefined) return value.toFixed(options.decimals);
  return String(Math.round(value * 10_000) / 10_000);
}

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
