import type { Comparison } from '../comparison.js';

export { renderConsole } from './console.js';
export { renderMarkdown, GITHUB_COMMENT_LIMIT } from './markdown.js';
export { renderHtml } from './html.js';

/** The comparison as JSON: every case, every statistic; `NaN` (an empty side) becomes `null`. */
export function renderJson(comparison: Comparison): string {
  return `${JSON.stringify(comparison, null, 2)}\n`;
}
