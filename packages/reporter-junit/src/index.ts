import type { AgentestPlugin } from '@agentest/kernel';
import { defineDocumentReporter, type ReporterOptions } from '@agentest/report';
import { renderJUnit } from './junit.js';

/** The plugin's name, and the reporter's in messages. */
export const PLUGIN_NAME = 'agentest:junit';

/** JUnit XML (`-o junit.xml`) for CI test-result views. */
export default function junitReporter(options: ReporterOptions = {}): AgentestPlugin {
  return defineDocumentReporter({
    name: PLUGIN_NAME,
    defaultFile: 'agentest-junit.xml',
    options,
    render: (report, opts) => renderJUnit(report, { cwd: opts.cwd, verbose: opts.verbose }),
  });
}

export { renderJUnit, type JUnitOptions } from './junit.js';
