// The `$ agentest …` example lines of a help page, and the copy of examples/app they run in.
import { cpSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const EXAMPLE_APP = fileURLToPath(new URL('../../../examples/app', import.meta.url));
const TEST_PACKAGE = fileURLToPath(new URL('../../test', import.meta.url));
/** Never a real browser from a test; `show-report` prints the path instead. */
const ENV = { BROWSER: 'none', CI: '' };

/** `$ agentest …` lines of a help page: the command without its `# comment`, split as a shell would. */
export function examplesOf(help: string): { line: string; words: string[] }[] {
  return [...help.matchAll(/^ {2}\$ (.+?)(?:\s+#.*)?$/gm)].map(([, line]) => ({
    line: line!,
    words: shellWords(line!),
  }));
}

/** Words of a command line: whitespace-separated, with "double" and 'single' quotes grouping. */
function shellWords(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map(([, double, single, bare]) => double ?? single ?? bare!);
}

/** A fresh copy of the example app, with `@agentest/test` resolvable as it is after `npm install`. */
export function exampleApp(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'agentest-help-')), 'app');
  cpSync(EXAMPLE_APP, dir, {
    recursive: true,
    // Not what runs in examples/app write meanwhile: reports, the history, a file still being written (*.tmp).
    filter: (src) => !/^(output-|\.agentest$|node_modules$)|\.tmp$/.test(basename(src)),
  });
  mkdirSync(join(dir, 'node_modules', '@agentest'), { recursive: true });
  symlinkSync(TEST_PACKAGE, join(dir, 'node_modules', '@agentest', 'test'), 'dir');
  return dir;
}

/** The environment an example runs in: the test's, plus the `NAME=value` words it starts with. */
export function envOf(words: string[]): NodeJS.ProcessEnv {
  return { ...ENV, ...Object.fromEntries(words.filter(isAssignment).map((w) => w.split(/=(.*)/s).slice(0, 2))) };
}

export function isAssignment(word: string): boolean {
  return /^[A-Z_][A-Z0-9_]*=/.test(word);
}
