import { defineReporter, type AgentestPlugin } from '@agentest/kernel';
import type { z } from 'zod';
import { parseReporterOptions, reporterOptionsSchema, type ReporterOptions } from './reporter-options.js';
import { ReportCollector, type Report } from './report.js';
import { resolveOutputPath, writeFileAtomic } from './write-file-atomic.js';

export interface DocumentReporterSpec<S extends z.ZodType<ReporterOptions>> {
  /** The plugin's name, used in messages too: agentest's own are `agentest:markdown`, `agentest:html`, … */
  name: string;
  /** Used when no `output` is given, relative to `cwd`. */
  defaultFile: string;
  /** Options schema; defaults to the shared one (`output`, `cwd`, `verbose`). */
  schema?: S;
  /** The raw options as the user gave them; validated when the plugin is applied. */
  options: unknown;
  render(report: Report, options: z.infer<S>): string | Promise<string>;
}

/**
 * A reporter that writes one whole document at the end of the run: it keeps the results it hears,
 * renders once the summary arrives and writes the file atomically (parent directories created).
 */
export function defineDocumentReporter<S extends z.ZodType<ReporterOptions>>(
  spec: DocumentReporterSpec<S>,
): AgentestPlugin {
  let options: z.infer<S>;
  const collector = new ReportCollector();
  const plugin = defineReporter({
    name: spec.name,
    onStart: (event) => collector.onStart(event),
    onResult: (event) => collector.onResult(event),
    async onSummary(event) {
      const output = resolveOutputPath(options, spec.defaultFile);
      const report = collector.build(event);
      report.metadata.output_file = output;
      await writeFileAtomic(output, await spec.render(report, options));
    },
  });
  return {
    ...plugin,
    apply(kernel) {
      options = parseReporterOptions(spec.name, (spec.schema ?? reporterOptionsSchema) as S, spec.options);
      plugin.apply(kernel);
    },
  };
}
