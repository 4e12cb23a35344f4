import type { AgentestPlugin, Reporter } from '@agentest/kernel';
import {
  defineDocumentReporter,
  documentReporter,
  type DocumentReporterSpec,
  type ReporterOptions,
} from '@agentest/report';
import { renderHtml } from './html.js';

/** The plugin's name, and the reporter's in messages. */
export const PLUGIN_NAME = 'agentest:html';

const spec = (options: ReporterOptions): DocumentReporterSpec => ({
  name: PLUGIN_NAME,
  defaultFile: 'agentest-report.html',
  options,
  render: (report) => renderHtml(report),
});

/** The interactive HTML report (`-o report.html`): one self-contained file, no network access. */
export default function htmlReporter(options: ReporterOptions = {}): AgentestPlugin {
  return defineDocumentReporter(spec(options));
}

/** The same reporter as a plain object, for a reporter that drives it itself (the reporter agent's fallback). */
export function createReporter(options: ReporterOptions = {}): Reporter {
  return documentReporter(spec(options));
}

export { renderHtml };
