import { existsSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { AgentestError } from '@agentest/kernel/errors';
import type { CliIo } from '../run-test.js';

const EXAMPLES = `
Examples:
  $ agentest show-report                               # the newest HTML report in the project
  $ agentest show-report assistants/keyword/tests      # the newest in a folder (its index.html first)
  $ BROWSER=none agentest show-report                  # print the report's path, open nothing

Without a file, the project (the nearest folder with a package.json) is searched for the newest HTML
report agentest wrote: -o report.html, an html reporter in the config, or output-<timestamp>.html beside
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
  const { findLatestReport, isAgentestReport } = await import('./find-report.js');
  const { openInBrowser } = await import('./open-in-browser.js');
  const { projectRoot } = await import('../project-history.js');
  const report = file ? await givenReport(resolve(io.cwd, file), file) : await latestIn(projectRoot({}, io.cwd));
  const shown = relative(io.cwd, report.path) || report.path;
  const opened = await openInBrowser(report.path, io.env);
  if (opened.opened) io.stdout.write(`Opening ${shown} (written ${report.modified.toLocaleString()})\n`);
  else {
    io.stdout.write(`${report.path}\n`);
    if (opened.reason) io.stderr.write(`Could not open a browser (${opened.reason}); open the file above yourself.\n`);
  }
  return 0;

  async function givenReport(path: string, given: string) {
    if (existsSync(path) && statSync(path).isDirectory()) {
      const index = join(path, 'index.html');
      if (await isAgentestReport(index)) return { path: index, modified: statSync(index).mtime };
      return latestIn(path);
    }
    if (!existsSync(path)) throw notFound(`${given}: no such file (looked at ${path})`);
    if (!(await isAgentestReport(path))) throw notFound(`${given}: not an HTML report written by agentest`);
    return { path, modified: statSync(path).mtime };
  }

  async function latestIn(root: string) {
    const found = await findLatestReport(root);
    if (!found) throw notFound(`no HTML report under ${relative(io.cwd, root) || root}`);
    return found;
  }
}

function notFound(problem: string): AgentestError {
  return new AgentestError(
    'REPORT_NOT_FOUND',
    `${problem}; write one with \`agentest test -i <suite> -o report.html\` or an html reporter in the config`,
    { where: 'show-report' },
  );
}
