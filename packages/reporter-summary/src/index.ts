import type { AgentestPlugin } from '@agentest/kernel';
import { defineDocumentReporter, type ReporterOptions } from '@agentest/report';
import { renderSummaryText } from './summary-text.js';

/** The brief text summary (`-o summary.txt`, `-r report.summary`). */
export default function summaryReporter(options: ReporterOptions = {}): AgentestPlugin {
  return defineDocumentReporter({
    name: 'summary',
    defaultFile: 'agentest-summary.txt',
    options,
    render: renderSummaryText,
  });
}

export { renderSummaryText };
