import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixture, jsonl } from './helpers.js';
import { agentestInProcess } from './in-process.js';

/** For each command, a bad flag and a bad value: each refusal names the command whose help shows the right form. */
const REFUSALS: { args: string[]; message: RegExp; help: string }[] = [
  { args: ['--bogus'], message: /unknown option '--bogus'/, help: 'agentest --help' },
  { args: ['nosuch'], message: /unknown command 'nosuch'/, help: 'agentest --help' },
  { args: ['test', '--bogus'], message: /unknown option '--bogus'/, help: 'agentest test --help' },
  { args: ['test', '-i', 'inputs.jsonl', '--runs', '0'], message: /--runs must be/, help: 'agentest test --help' },
  { args: ['merge', '--bogus'], message: /unknown option '--bogus'/, help: 'agentest merge --help' },
  { args: ['merge'], message: /missing required argument 'blobs'/, help: 'agentest merge --help' },
  { args: ['compare', 'a.jsonl', 'b.jsonl', '--bogus'], message: /unknown option/, help: 'agentest compare --help' },
  {
    args: ['compare', 'a.jsonl', 'b.jsonl', '--alpha', '2'],
    message: /--alpha must be/,
    help: 'agentest compare --help',
  },
  { args: ['init', '--bogus'], message: /unknown option '--bogus'/, help: 'agentest init --help' },
  { args: ['init', '--assistant', 'x'], message: /--assistant x: .* is not a Yao app/, help: 'agentest init --help' },
  { args: ['show-report', '--bogus'], message: /unknown option '--bogus'/, help: 'agentest show-report --help' },
  { args: ['show-report', 'a.html', 'b.html'], message: /too many arguments/, help: 'agentest show-report --help' },
  { args: ['history', '--bogus'], message: /unknown option '--bogus'/, help: 'agentest history --help' },
  { args: ['history', '-i'], message: /argument missing/, help: 'agentest history --help' },
];

test('a bad flag or value of any command is FLAG_INVALID whose hint names that command’s --help', async () => {
  const dir = fixture({ 'inputs.jsonl': jsonl([{ id: 'T1', input: 'hi' }]) });
  for (const { args, message, help } of REFUSALS) {
    const run = await agentestInProcess(args, { cwd: dir });
    const shown = `agentest ${args.join(' ')}: ${run.stderr}`;
    assert.equal(run.code, 2, shown);
    assert.match(run.stderr, /^error\[FLAG_INVALID\]: /, shown);
    assert.match(run.stderr, message, shown);
    assert.ok(run.stderr.includes(`hint: Use the form shown in \`${help}\`.`), shown);
    assert.equal(run.stdout, '', shown);
  }
});
