import { appendFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { defineReporter, type AgentestPlugin } from '@agentest/kernel';
import {
  failureMessage,
  haltNote,
  interruptionNote,
  isFailure,
  parseReporterOptions,
  renderMarkdown,
  reporterOptionsSchema,
  truncate,
  type ReadonlyResult,
  type Report,
} from '@agentest/report';
import * as z from 'zod';
import { JobSummaryCases, MOST_FAILURES_LISTED } from './job-summary-cases.js';
import { annotation } from './workflow-commands.js';

/** The plugin's name, and the reporter's in messages. */
export const PLUGIN_NAME = 'agentest:github';

const optionsSchema = reporterOptionsSchema.extend({
  /**
   * The environment to read `GITHUB_ACTIONS`, `GITHUB_STEP_SUMMARY` and `GITHUB_WORKSPACE` from (default: the
   * process's).
   */
  env: z.record(z.string(), z.string().optional()).optional(),
  /** Where workflow commands go (default: standard output, where the runner reads them). */
  write: z.custom<(line: string) => void>((v) => typeof v === 'function', 'must be a function').optional(),
  /** GitHub shows a limited number of annotations per step; past this many, one notice counts the rest. */
  maxAnnotations: z.number().int().positive().optional(),
});

export type GithubReporterOptions = z.input<typeof optionsSchema>;

/** GitHub's limit for one step's summary is 1 MiB; stay under it with room to spare. */
const SUMMARY_LIMIT_BYTES = 900_000;

/**
 * GitHub Actions: an error annotation on the JSONL line of every failing case, and a Markdown job
 * summary appended to `$GITHUB_STEP_SUMMARY`. Outside Actions (`GITHUB_ACTIONS` unset) it does nothing.
 * It holds only what the summary lists (see JobSummaryCases), however long the suite.
 */
export default function githubReporter(rawOptions: GithubReporterOptions = {}): AgentestPlugin {
  let options: z.infer<typeof optionsSchema>;
  let env: Record<string, string | undefined> = {};
  let annotated = 0;
  let unannotated = 0;
  const collector = new JobSummaryCases();
  const write = (line: string) => (options.write ? options.write(line) : void process.stdout.write(`${line}\n`));

  const plugin = defineReporter({
    name: PLUGIN_NAME,
    onStart(event) {
      annotated = unannotated = 0;
      collector.onStart(event);
    },
    onResult(event) {
      collector.onResult(event);
      if (!isFailure(event.status)) return;
      if (annotated >= (options.maxAnnotations ?? 50)) return void unannotated++;
      annotated++;
      write(
        annotation({
          level: 'error',
          file: workspacePath(event.source.file),
          line: event.source.line,
          title: event.id,
          message: describe(event),
        }),
      );
    },
    async onSummary(event) {
      const stopped = interruptionNote(event) ?? haltNote(event);
      if (stopped)
        write(annotation({ level: 'warning', title: 'agentest', message: `${stopped}; the results are partial` }));
      if (unannotated)
        write(
          annotation({
            level: 'notice',
            message: `${unannotated} more failing cases were not annotated; see the job summary`,
          }),
        );
      const summaryFile = env.GITHUB_STEP_SUMMARY;
      if (summaryFile) await appendFile(summaryFile, jobSummary(collector.build(event)), 'utf8');
    },
  });

  function workspacePath(file: string): string {
    const absolute = isAbsolute(file) ? file : resolve(options.cwd ?? process.cwd(), file);
    const path = relative(env.GITHUB_WORKSPACE ?? options.cwd ?? process.cwd(), absolute);
    return path.startsWith('..') ? absolute : path;
  }

  return {
    ...plugin,
    apply(kernel) {
      options = parseReporterOptions(PLUGIN_NAME, optionsSchema, rawOptions);
      env = options.env ?? process.env;
      if (env.GITHUB_ACTIONS) plugin.apply(kernel);
    },
  };
}

function describe(result: ReadonlyResult): string {
  const runs = result.stability ? ` (${result.stability.passed}/${result.stability.runs} runs passed)` : '';
  return `${result.status}${runs}: ${failureMessage(result)}`;
}

/** The Markdown report's failures-only view, shortened until it fits GitHub's size limit. */
function jobSummary(report: Report): string {
  for (const maxResults of [MOST_FAILURES_LISTED, 20, 0]) {
    const markdown = renderMarkdown(report, { results: 'failures', maxResults });
    if (Buffer.byteLength(markdown) <= SUMMARY_LIMIT_BYTES) return `${markdown}\n`;
  }
  return `${truncate(renderMarkdown(report, { results: 'failures', maxResults: 0 }), SUMMARY_LIMIT_BYTES / 4)}\n`;
}

export { annotation, escapeData, escapeProperty, type Annotation } from './workflow-commands.js';
