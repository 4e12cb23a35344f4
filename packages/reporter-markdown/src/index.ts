import type { AgentestPlugin } from '@agentest/kernel';
import { defineDocumentReporter } from './document-reporter.js';
import { renderMarkdown } from './markdown.js';
import type { ReporterOptions } from './options.js';

/** The Markdown report (`-o report.md`): the seed's layout, readable on GitHub. */
export default function markdownReporter(options: ReporterOptions = {}): AgentestPlugin {
  return defineDocumentReporter({
    name: 'markdown',
    defaultFile: 'agentest-report.md',
    options,
    render: (report, opts) => renderMarkdown(report, { verbose: opts.verbose }),
  });
}

export { renderMarkdown, type MarkdownOptions } from './markdown.js';
export { defineDocumentReporter, type DocumentReporterSpec } from './document-reporter.js';
export { ReportCollector, type Report, type ReportMetadata, type ReadonlyResult } from './report.js';
export { reporterOptionsSchema, parseReporterOptions, type ReporterOptions } from './options.js';
export { writeFileAtomic, resolveOutputPath } from './write.js';
export { cell, code, fence, inline, table } from './markdown-syntax.js';
export * from './format.js';
