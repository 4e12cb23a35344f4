import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { defineReporter, type AgentestPlugin, type DeepReadonly, type Reporter, type RunPlan } from '@agentest/kernel';
import { safeStringify } from '@agentest/common';
import { fileReporterOptionsSchema, parseReporterOptions, ReportCollector, writeFileAtomic } from '@agentest/report';
import { buildReport } from './report.js';
import { buildScriptReport } from './script-report.js';

/** The plugin's name, and the reporter's in messages. */
export const PLUGIN_NAME = 'agentest:json';

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
  return defineReporter(createReporter(options));
}

/** The same reporter as a plain object, for a reporter that drives it itself (the reporter agent's fallback). */
export function createReporter(options: JsonReporterOptions = {}): Reporter {
  const parsed = parseReporterOptions(PLUGIN_NAME, fileReporterOptionsSchema, options);
  const output = resolve(parsed.cwd ?? process.cwd(), parsed.output);
  let plan: DeepReadonly<RunPlan> | undefined;
  let started = false;
  const collector = new ReportCollector();

  return {
    name: PLUGIN_NAME,
    onSetup: (p) => void (plan = p),
    onStart(event) {
      started = true;
      collector.onStart(event);
    },
    onResult: (event) => collector.onResult(event),
    async onSummary(event) {
      if (!started) return;
      const meta = { version: options.version ?? PACKAGE_VERSION, outputFile: output, plan };
      const collected = collector.build(event);
      const report =
        collected.metadata.kind === 'script' ? buildScriptReport(collected, meta) : buildReport(collected, meta);
      // Atomic: on a full disk the previous report stays whole rather than becoming a truncated one.
      await writeFileAtomic(output, safeStringify(report, 2) + '\n');
    },
  };
}

export { buildReport, buildScriptReport };
