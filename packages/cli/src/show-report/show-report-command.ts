import { relative } from 'node:path';
import type { Command } from 'commander';
import type { CliIo } from '../run-test.js';

const EXAMPLES = `
Examples:
  $ agentest show-report                               # the newest HTML report in the project
  $ agentest show-report assistants/keyword/tests      # the newest in a folder (its index.html first)
  $ BROWSER=none agentest show-report                  # print the report's path, open nothing

Without a file, the project (the nearest folder up with an agentest config or a package.json) is searched
for the newest HTML report agentest wrote: -o report.html, an html reporter in the config, or output-<timestamp>.html beside
a suite. The report is one self-contained file, opened with the system's browser (open, start, xdg-open,
or the command BROWSER names).`;

/** `agentest show-report [file]`: declared here; the search loads only when it runs. */
export function addShowReportCommand(program: Command, io: CliIo, onRun: (code: number) => void): void {
  program
    .command('show-report')
    .description('Open the latest HTML report (or the one given) in the browser.')
    .argument('[file]', 'an HTML report, or a folder holding one (default: the newest in the project)')
    .addHelpText('after', EXAMPLES)
    .action(async (file: string | undefined) => onRun(await runShowReport(file, io)));
}

export async function runShowReport(file: string | undefined, io: CliIo): Promise<number> {
  const { locateReport } = await import('./find-report.js');
  const { openInBrowser } = await import('./open-in-browser.js');
  const report = await locateReport(file, io.cwd);
  const opened = await openInBrowser(report.path, io.env);
  if (opened.opened) {
    const shown = relative(io.cwd, report.path) || report.path;
    io.stdout.write(`Opening ${shown} (written ${report.modified.toLocaleString()})\n`);
    return 0;
  }
  io.stdout.write(`${report.path}\n`);
  if (opened.reason) io.stderr.write(`Could not open a browser (${opened.reason}); open the file above yourself.\n`);
  return 0;
}
