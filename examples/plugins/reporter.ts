/**
 * A reporter: hears the run's events in order and writes what it needs. This one writes one text file
 * per suite (`<dir>/<suite file>.txt`): a line per case and the total. `defineReporter` makes it a
 * plugin (`enforce: 'post'`) that taps `report` and `teardown`, with a timeout; a reporter that throws is
 * silenced for the rest of the run and the run exits 3, its verdicts unchanged.
 *
 * In the config:  reporters: [['./reporter.ts', { dir: 'output' }]]
 * agentest calls the factory with the entry's options plus `cwd`, `verbose` and (under --no-color) `color`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { defineReporter } from '@agentest/test';

export interface CaseListOptions {
  /** The folder to write into, relative to `cwd` (default `agentest-cases`). */
  dir?: string;
  /** Given by agentest: the directory the run started in. */
  cwd?: string;
}

export default function caseList(options: CaseListOptions = {}) {
  const dir = resolve(options.cwd ?? process.cwd(), options.dir ?? 'agentest-cases');
  let file = join(dir, 'suite.txt');
  let lines: string[] = [];
  return defineReporter({
    name: 'example:case-list',
    onStart(start) {
      // One run per suite, and a kernel may run several times (watch mode): start afresh each run.
      file = join(dir, `${basename(start.suite)}.txt`);
      lines = [];
    },
    onResult(result) {
      lines.push(`${result.status.padEnd(7)} ${result.id}${result.error ? `: ${result.error}` : ''}`);
    },
    onSummary(summary) {
      lines.push(`${summary.passed}/${summary.total} passed`);
    },
    close() {
      // Called once at the end of every run, even a failed one: write the file here.
      mkdirSync(dir, { recursive: true });
      writeFileSync(file, `${lines.join('\n')}\n`);
    },
  });
}
