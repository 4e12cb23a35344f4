import type { AgentestPlugin } from '@agentest/kernel';
import { defineDocumentReporter, type ReporterOptions } from '@agentest/report';
import { renderSummaryText } from './summary-text.js';

/** The plugin's name, and the reporter's in messages. */
export const PLUGIN_NAME = 'agentest:summary';

/** The brief text summary (`-o summary.txt`, `-r report.summary`). */
export default function summaryReporter(options: ReporterOptions = {}): AgentestPlugin {
  return defineDocumentReporter({
    name: PLUGIN_NAME,
    defaultFile: 'agentest-summary.txt',
    options,
    render: renderSummaryText,
  });
}

export { renderSummaryText };
