import type { DeepReadonly, Summary } from '@agentest/kernel';
import { metricKey } from './verdict/metric-names.js';
import { isMaxMetric, meetsThreshold } from './metric-format.js';

/** One line of a report's Metrics block. */
export interface MetricRow {
  name: string;
  /** Undefined when this run did not measure the metric (shown as "not measured", not held against the run). */
  value?: number;
  /** The threshold, when one was set. */
  limit?: number;
  isMax: boolean;
  /** Whether the value meets the threshold; undefined without a threshold or a value. */
  met?: boolean;
}

/**
 * The Metrics block of a summary: every measured metric and every threshold, in that order, each
 * threshold read under the name its value is measured by (`avg_latency_ms` is the kernel's
 * `latency_ms`). Every report lists metrics through this, so none shows a threshold as missed that
 * another shows as met.
 */
export function metricRows(summary: Pick<DeepReadonly<Summary>, 'metrics' | 'thresholds'>): MetricRow[] {
  const metrics = summary.metrics ?? {};
  const thresholds = summary.thresholds ?? {};
  const names = [...new Set([...Object.keys(metrics), ...Object.keys(thresholds)])];
  return names.map((name) => {
    const key = metricKey(name);
    const value = Object.hasOwn(metrics, key) ? metrics[key] : undefined;
    const limit = Object.hasOwn(thresholds, name) ? thresholds[name] : undefined;
    const row: MetricRow = { name, isMax: isMaxMetric(name) };
    if (value !== undefined) row.value = value;
    if (limit !== undefined) row.limit = limit;
    if (value !== undefined && limit !== undefined) row.met = meetsThreshold(name, value, limit);
    return row;
  });
}
