// Every flag a help page lists is documented: docs/cli.md, or the page it sends a command's flags to.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { agentestInProcess } from './in-process.js';

const DOCS = ['cli.md', 'compare.md']
  .map((name) => readFileSync(fileURLToPath(new URL(`../../../docs/${name}`, import.meta.url)), 'utf8'))
  .join('\n');
const COMMANDS = [[], ['test'], ['merge'], ['compare'], ['init'], ['show-report'], ['history']];

test('every flag of every help page is documented in docs/cli.md (compare’s in docs/compare.md)', async () => {
  for (const command of COMMANDS) {
    const help = await agentestInProcess([...command, '--help'], { cwd: process.cwd() });
    assert.equal(help.code, 0, help.stderr);
    const flags = [...help.stdout.matchAll(/^ {2}(?:-\w, )?(--[a-z][a-z-]*)/gm)].map(([, flag]) => flag!);
    assert.ok(flags.includes('--help'), `agentest ${command.join(' ')} --help lists its flags`);
    for (const flag of flags)
      assert.match(DOCS, new RegExp(`\`(-\\w, )?${flag}[\\s<\\[\`]`), `agentest ${command.join(' ')} ${flag}`);
  }
});
