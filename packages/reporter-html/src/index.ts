import type { AgentestPlugin } from '@agentest/kernel';
import { defineDocumentReporter, type ReporterOptions } from '@agentest/report';
import { renderHtml } from './html.js';

/** The plugin's name, and the reporter's in messages. */
export const PLUGIN_NAME = 'agentest:html';

/** The interactive HTML report (`-o report.html`): one self-contained file, no network access. */
export default function htmlReporter(options: ReporterOptions = {}): AgentestPlugin {
  return defineDocumentReporter({
    name: PLUGIN_NAME,
    defaultFile: 'agentest-report.html',
    options,
    render: (report) => renderHtml(report),
  });
}

export { renderHtml };
