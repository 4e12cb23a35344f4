import { defineReporter, type AgentestPlugin, type Reporter } from '@agentest/kernel';
import type * as z from 'zod';
import { parseReporterOptions, reporterOptionsSchema, type ReporterOptions } from './reporter-options.js';
import { ReportCollector, type Report } from './report.js';
import { resolveOutputPath, writeFileAtomic } from './write-file-atomic.js';

export interface DocumentReporterSpec<S extends z.ZodType<ReporterOptions> = typeof reporterOptionsSchema> {
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
  // The options are checked when the plugin is applied, as every plugin's are.
  return { name: spec.name, enforce: 'post', apply: (kernel) => defineReporter(documentReporter(spec)).apply(kernel) };
}

/**
 * The same as a plain reporter object, for a reporter that drives another itself (the reporter agent's
 * fallback). Its options are checked now.
 */
export function documentReporter<S extends z.ZodType<ReporterOptions>>(spec: DocumentReporterSpec<S>): Reporter {
  const options = parseReporterOptions(spec.name, (spec.schema ?? reporterOptionsSchema) as S, spec.options);
  const collector = new ReportCollector();
  return {
    name: spec.name,
    onStart: (event) => collector.onStart(event),
    onResult: (event) => collector.onResult(event),
    async onSummary(event) {
      const output = resolveOutputPath(options, spec.defaultFile);
      const report = collector.build(event);
      report.metadata.output_file = output;
      await writeFileAtomic(output, await spec.render(report, options));
    },
  };
}
