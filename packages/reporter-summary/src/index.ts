import type { AgentestPlugin, Reporter } from '@agentest/kernel';
import {
  defineDocumentReporter,
  documentReporter,
  type DocumentReporterSpec,
  type ReporterOptions,
} from '@agentest/report';
import { renderSummaryText } from './summary-text.js';

/** The plugin's name, and the reporter's in messages. */
export const PLUGIN_NAME = 'agentest:summary';

const spec = (options: ReporterOptions): DocumentReporterSpec => ({
  name: PLUGIN_NAME,
  defaultFile: 'agentest-summary.txt',
  options,
  render: renderSummaryText,
});

/** The brief text summary (`-o summary.txt`, `-r report.summary`). */
export default function summaryReporter(options: ReporterOptions = {}): AgentestPlugin {
  return defineDocumentReporter(spec(options));
}

/** The same reporter as a plain object, for a reporter that drives it itself (the reporter agent's fallback). */
export function createReporter(options: ReporterOptions = {}): Reporter {
  return documentReporter(spec(options));
}

export { renderSummaryText };
