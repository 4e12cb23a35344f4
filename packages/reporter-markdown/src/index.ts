import type { AgentestPlugin, Reporter } from '@agentest/kernel';
import {
  defineDocumentReporter,
  documentReporter,
  renderMarkdown,
  type DocumentReporterSpec,
  type ReporterOptions,
} from '@agentest/report';

/** The plugin's name, and the reporter's in messages. */
export const PLUGIN_NAME = 'agentest:markdown';

const spec = (options: ReporterOptions): DocumentReporterSpec => ({
  name: PLUGIN_NAME,
  defaultFile: 'agentest-report.md',
  options,
  render: (report, opts) => renderMarkdown(report, { verbose: opts.verbose }),
});

/** The Markdown report (`-o report.md`): the seed's layout, readable on GitHub. */
export default function markdownReporter(options: ReporterOptions = {}): AgentestPlugin {
  return defineDocumentReporter(spec(options));
}

/** The same reporter as a plain object, for a reporter that drives it itself (the reporter agent's fallback). */
export function createReporter(options: ReporterOptions = {}): Reporter {
  return documentReporter(spec(options));
}
