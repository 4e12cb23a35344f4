import type { AgentestPlugin } from '@agentest/kernel';
import { defineDocumentReporter, renderMarkdown, type ReporterOptions } from '@agentest/report';

/** The plugin's name, and the reporter's in messages. */
export const PLUGIN_NAME = 'agentest:markdown';

/** The Markdown report (`-o report.md`): the seed's layout, readable on GitHub. */
export default function markdownReporter(options: ReporterOptions = {}): AgentestPlugin {
  return defineDocumentReporter({
    name: PLUGIN_NAME,
    defaultFile: 'agentest-report.md',
    options,
    render: (report, opts) => renderMarkdown(report, { verbose: opts.verbose }),
  });
}
