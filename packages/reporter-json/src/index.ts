import { createRequire } from 'node:module';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { defineReporter, type AgentestPlugin, type DeepReadonly, type ResultEvent, type RunPlan, type StartEvent } from '@agentest/kernel';
import { buildReport } from './report.js';
import { buildScriptReport } from './script-report.js';

export interface JsonReporterOptions {
  /** The report file; relative paths resolve against `cwd`. Required. */
  output?: string;
  cwd?: string;
  verbose?: boolean;
  /** Recorded as `metadata.version`; defaults to this package's version. */
  version?: string;
}

const PACKAGE_VERSION = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

/**
 * The full report as one JSON document, written when the summary arrives. Agent suites get Yao's
 * report shape (`summary`, `environment`, `results`, `stability_results`, `metadata`); script suites
 * get the seed's `script_test` shape. It keeps every result in memory until the end, by nature.
 */
export default function jsonReporter(options: JsonReporterOptions = {}): AgentestPlugin {
  if (!options.output) throw new TypeError('reporter-json: the "output" option (a file path) is required');
  const output = resolve(options.cwd ?? process.cwd(), options.output);
  let plan: RunPlan | undefined;
  let start: DeepReadonly<StartEvent> | undefined;
  const results: DeepReadonly<ResultEvent>[] = [];

  const reporter = defineReporter({
    name: 'json',
    onStart: (event) => void (start = event),
    onResult: (event) => void results.push(event),
    async onSummary(summary) {
      if (!start) return;
      const meta = { version: options.version ?? PACKAGE_VERSION, outputFile: output, plan };
      const report = start.kind === 'script' ? buildScriptReport(start, results, summary, meta) : buildReport(start, results, summary, meta);
      await mkdir(dirname(output), { recursive: true });
      await writeFile(output, JSON.stringify(report, null, 2) + '\n');
    },
  });
  return {
    ...reporter,
    apply(kernel) {
      kernel.hooks.setup.tap(reporter.name, (p) => void (plan = p));
      reporter.apply(kernel);
    },
  };
}

export { buildReport, buildScriptReport };
