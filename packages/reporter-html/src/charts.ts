import { formatDuration, truncate, type ReadonlyResult } from '@agentest/report';

/**
 * Stability charts as hand-written inline SVG: no script at view time, a few hundred bytes each,
 * printable. The least stable cases come first; long suites show the first `limit` of them.
 */

const WIDTH = 720;
const LABEL = 180;
const ROW = 22;
const CLASS_COLOURS: Record<string, string> = {
  stable: '#3fb950',
  mostly_stable: '#d29922',
  unstable: '#f0883e',
  highly_unstable: '#f85149',
};

export interface ChartRow {
  id: string;
  passRate: number;
  stabilityClass: string;
  min: number;
  avg: number;
  max: number;
}

export function chartRows(results: readonly ReadonlyResult[], limit = 30): { rows: ChartRow[]; total: number } {
  const all = results
    .filter((r) => r.stability)
    .map((r) => ({
      id: r.id,
      passRate: r.stability!.pass_rate,
      stabilityClass: r.stability!.stability_class,
      min: r.stability!.min_duration_ms,
      avg: r.stability!.avg_duration_ms,
      max: r.stability!.max_duration_ms,
    }))
    .sort((a, b) => a.passRate - b.passRate || b.max - a.max);
  return { rows: all.slice(0, limit), total: all.length };
}

export function passRateChart(rows: readonly ChartRow[]): string {
  const plot = WIDTH - LABEL - 60;
  const bars = rows.map((r, i) => {
    const y = i * ROW;
    const width = Math.max(1, (r.passRate / 100) * plot);
    const tip = `${r.id}: ${r.passRate.toFixed(1)}% (${r.stabilityClass})`;
    return `<g><title>${xml(tip)}</title>${label(r.id, y)}<rect x="${LABEL}" y="${y + 4}" width="${width.toFixed(1)}" height="${ROW - 8}" rx="2" fill="${CLASS_COLOURS[r.stabilityClass] ?? '#8b949e'}"/><text x="${(LABEL + width + 6).toFixed(1)}" y="${y + 15}" class="value">${r.passRate.toFixed(0)}%</text></g>`;
  });
  return svg('Run pass rate per case', rows.length, bars.join(''));
}

export function durationSpreadChart(rows: readonly ChartRow[]): string {
  const plot = WIDTH - LABEL - 90;
  const top = Math.max(1, ...rows.map((r) => r.max));
  const x = (ms: number) => (LABEL + (ms / top) * plot).toFixed(1);
  const lines = rows.map((r, i) => {
    const y = i * ROW + ROW / 2;
    const tip = `${r.id}: min ${formatDuration(r.min)}, avg ${formatDuration(r.avg)}, max ${formatDuration(r.max)}`;
    return `<g><title>${xml(tip)}</title>${label(r.id, i * ROW)}<line x1="${x(r.min)}" y1="${y}" x2="${x(r.max)}" y2="${y}" stroke="#58a6ff" stroke-width="4" stroke-linecap="round"/><circle cx="${x(r.avg)}" cy="${y}" r="5" fill="#f0f6fc"/><text x="${(Number(x(r.max)) + 8).toFixed(1)}" y="${y + 4}" class="value">${xml(formatDuration(r.max))}</text></g>`;
  });
  return svg('Duration spread per case (min–max, dot = average)', rows.length, lines.join(''));
}

function svg(title: string, count: number, body: string): string {
  const height = Math.max(ROW, count * ROW);
  return `<svg class="chart" role="img" viewBox="0 0 ${WIDTH} ${height}" width="100%" aria-label="${xml(title)}" xmlns="http://www.w3.org/2000/svg"><title>${xml(title)}</title>${body}</svg>`;
}

function label(id: string, y: number): string {
  return `<text x="${LABEL - 8}" y="${y + 15}" text-anchor="end" class="label">${xml(truncate(id, 26))}</text>`;
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
