// Every flag a help page lists is documented (docs/cli.md, or the page it sends a command's flags to)
// and names its default, and every flag the docs name exists.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createProgram } from '../src/program.js';
import type { CliIo } from '../src/run-test.js';
import { agentestInProcess } from './in-process.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DOCS = ['cli.md', 'compare.md'].map((name) => readFileSync(join(ROOT, 'docs', name), 'utf8')).join('\n');
const COMMANDS = [[], ['test'], ['merge'], ['compare'], ['init'], ['show-report'], ['history']];

/** The long flags a command's help page lists. */
async function helpFlags(command: string[]): Promise<string[]> {
  const help = await agentestInProcess([...command, '--help'], { cwd: process.cwd() });
  assert.equal(help.code, 0, help.stderr);
  return [...help.stdout.matchAll(/^ {2}(?:-\w, )?(--[a-z][a-z-]*)/gm)].map(([, flag]) => flag!);
}

test('every flag of every help page is documented in docs/cli.md (compare’s in docs/compare.md)', async () => {
  for (const command of COMMANDS) {
    const flags = await helpFlags(command);
    assert.ok(flags.includes('--help'), `agentest ${command.join(' ')} --help lists its flags`);
    for (const flag of flags)
      assert.match(DOCS, new RegExp(`\`(-\\w, )?${flag}[\\s<\\[\`]`), `agentest ${command.join(' ')} ${flag}`);
  }
});

test('every flag the README and docs/ name in code (`--flag …`) is a flag of some command', async () => {
  const known = new Set((await Promise.all(COMMANDS.map(helpFlags))).flat());
  // Named to say agentest has no such flag.
  const absent = new Set(['--all']);
  const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((name) => `docs/${name}`)];
  for (const page of pages) {
    const text = readFileSync(join(ROOT, page), 'utf8');
    for (const [, flag] of text.matchAll(/`(--[a-z][a-z-]*)/g))
      assert.ok(known.has(flag!) || absent.has(flag!), `${page} names ${flag}, which no agentest command has`);
  }
});

test("every flag's help names its default, except --help, --version and the --no-… forms of a switch", () => {
  const io = { cwd: process.cwd(), env: {}, stdout: process.stdout, stderr: process.stderr } as unknown as CliIo;
  const program = createProgram('0.0.0', io, () => undefined);
  const silent: string[] = [];
  for (const command of [program, ...program.commands])
    for (const option of command.options) {
      if (option.negate || option.long === '--help' || option.long === '--version') continue;
      if (!/\(default: /.test(option.description)) silent.push(`agentest ${command.name()} ${option.flags}`);
    }
  assert.deepEqual(silent, []);
});
