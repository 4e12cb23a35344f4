/**
 * Hostile and broken input through the real CLI: each must stop the run before any agent is called
 * with exit code 2 and one precise message — the file and line (or flag, or config key) at fault,
 * the field, and what to do — and never a stack trace.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runCli, stackFrames } from './helpers/cli.js';
import { workspace, writeCases, writeJson } from './helpers/workspace.js';

interface Scenario {
  name: string;
  /** Writes the fixture into `dir` and returns the CLI arguments after `test`. */
  setup(dir: string): string[];
  code: string;
  /** Every pattern must appear in stderr. */
  says: RegExp[];
  todo?: string;
}

const ok = (id = 'ok') => ({ id, input: 'hello' });
const cases = (dir: string, lines: unknown[]) => (
  writeCases(dir, 'cases.jsonl', lines),
  ['-i', 'cases.jsonl', '-n', 'echo']
);

const SCENARIOS: Scenario[] = [
  {
    name: 'a malformed JSON line',
    setup: (dir) => cases(dir, [ok('a'), '{"id": "b", "input": "hi"', ok('c')]),
    code: 'INPUT_INVALID',
    says: [/cases\.jsonl:2/, /invalid JSON/, /one complete JSON object per line/],
  },
  {
    name: 'a line that is not an object',
    setup: (dir) => cases(dir, [ok('a'), '["id", "b"]']),
    code: 'INPUT_INVALID',
    says: [/cases\.jsonl:2/, /expected a JSON object, got array/],
  },
  ...(
    [
      ['id', 5, /field "id" must be a string, got 5/],
      ['id', '', /field "id" must be a non-empty string/],
      ['name', 7, /field "name" must be a string/],
      ['user', true, /field "user" must be a string/],
      ['team', [], /field "team" must be a string/],
      ['metadata', 'tag', /field "metadata" must be an object/],
      ['options', 3, /field "options" must be an object/],
      ['skip', 'yes', /field "skip" must be true or false/],
      ['todo', 1, /field "todo" must be true or false/],
      ['timeout', 30, /field "timeout" must be a duration string/],
      ['timeout', '5 minutes', /field "timeout" is not a duration/],
      ['input', 42, /"input" must be a string, a message object or an array of messages, got number/],
      ['input', [], /"input" is an empty array/],
      ['input', null, /missing required field "input"/],
      ['assert', 5, /field "assert" must be an assertion object or a type name, got number/],
      ['assert', { type: 3 }, /field "assert\.type" must be a string/],
      ['assert', [{ type: 'contains', negate: 'no' }], /field "assert\[0\]\.negate" must be true or false/],
    ] as const
  ).map(([field, value, says]): Scenario => ({
    name: `field "${field}" of the wrong type (${JSON.stringify(value)})`,
    setup: (dir) => cases(dir, [ok('a'), { id: 'b', input: 'hi', [field]: value }]),
    code: 'INPUT_INVALID',
    says: [/cases\.jsonl:2/, says, / — \S/],
  })),
  {
    name: 'a line longer than 10 MiB',
    setup: (dir) => cases(dir, [ok('a'), { id: 'b', input: 'x'.repeat(11 * 1024 * 1024) }]),
    code: 'INPUT_INVALID',
    says: [/cases\.jsonl:2/, /longer than 10 MiB/, /file:\/\//],
  },
  {
    name: 'invalid UTF-8',
    setup: (dir) => {
      writeFileSync(
        join(dir, 'cases.jsonl'),
        Buffer.concat([
          Buffer.from(`${JSON.stringify(ok('a'))}\n{"id": "b", "input": "`),
          Buffer.from([0xc3, 0x28, 0xff]),
          Buffer.from('"}\n'),
        ]),
      );
      return ['-i', 'cases.jsonl', '-n', 'echo'];
    },
    code: 'INPUT_INVALID',
    says: [/cases\.jsonl:2/, /not valid UTF-8/, /save the file as UTF-8/],
  },
  {
    name: 'duplicate ids',
    setup: (dir) => cases(dir, [ok('a'), ok('b'), ok('a')]),
    code: 'DUPLICATE_CASE_ID',
    says: [/cases\.jsonl:3/, /duplicate id "a" \(first used on line 1\)/, /unique id/],
  },
  {
    name: 'an unknown assertion type',
    setup: (dir) => cases(dir, [ok('a'), { id: 'b', input: 'hi', assert: { type: 'containz', value: 'x' } }]),
    code: 'NO_ASSERTION',
    says: [/cases\.jsonl:2/, /assertion type "containz"/, /known: .*contains/],
  },
  {
    name: 'an invalid regex',
    setup: (dir) =>
      cases(dir, [
        ok('a'),
        {
          id: 'b',
          input: 'hi',
          assert: [
            { type: 'contains', value: 'h' },
            { type: 'regex', value: '(unclosed' },
          ],
        },
      ]),
    code: 'ASSERTION_INVALID',
    says: [/cases\.jsonl:2/, /assert\[1\]/, /regex/, /missing closing \)/],
  },
  {
    name: 'a regex using lookbehind, which RE2 does not support',
    setup: (dir) => cases(dir, [{ id: 'b', input: 'hi', assert: { type: 'regex', value: '(?<=a)b' } }]),
    code: 'ASSERTION_INVALID',
    says: [/cases\.jsonl:1/, /regex/],
  },
  {
    name: 'an invalid JSONPath',
    setup: (dir) =>
      cases(dir, [{ id: 'b', input: '{"a": 1}', assert: { type: 'json_path', path: '$.a[?(', value: 1 } }]),
    code: 'ASSERTION_INVALID',
    says: [/cases\.jsonl:1/, /json_path/, /path/],
  },
  {
    name: 'an assertion without its value',
    setup: (dir) => cases(dir, [{ id: 'b', input: 'hi', assert: { type: 'contains' } }]),
    code: 'ASSERTION_INVALID',
    says: [/cases\.jsonl:1/, /contains/, /value/],
  },
  {
    name: 'an input file that does not exist',
    setup: () => ['-i', 'nope.jsonl', '-n', 'echo'],
    code: 'INPUT_NOT_FOUND',
    says: [/nope\.jsonl/, /check the -i path/],
  },
  {
    name: 'an empty file',
    setup: (dir) => (writeFileSync(join(dir, 'cases.jsonl'), '\n\n'), ['-i', 'cases.jsonl', '-n', 'echo']),
    code: 'NO_CASES',
    says: [/cases\.jsonl holds no test case/],
  },
  {
    name: 'a misspelt case key ("expect" for "expected")',
    setup: (dir) => cases(dir, [ok('a'), { id: 'b', input: 'hi', expect: 'hi' }]),
    code: 'INPUT_INVALID',
    says: [/cases\.jsonl:2/, /unknown field "expect" \(did you mean "expected"\?\)/, /metadata/],
  },
  {
    name: 'a file:// part outside the suite folder and the app root',
    setup: (dir) => cases(dir, [{ id: 'a', input: [{ type: 'file', source: 'file:///proc/self/environ' }] }]),
    code: 'INPUT_INVALID',
    says: [/cases\.jsonl:1/, /outside the suite's folder and the app root/, /files\.allow/],
  },
  {
    name: 'a file name given to -r (meant for -o)',
    setup: (dir) => [...cases(dir, [ok()]), '-r', 'report.htm'],
    code: 'FLAG_INVALID',
    says: [/-r "report\.htm" names no reporter agent/, /use -o report\.htm/],
  },
  {
    name: 'a --ctx file that does not exist',
    setup: (dir) => [...cases(dir, [ok()]), '--ctx', 'missing.json'],
    code: 'CONTEXT_FILE_INVALID',
    says: [/missing\.json/, /file not found/],
  },
  {
    name: 'a --ctx file that is not JSON',
    setup: (dir) => (
      writeFileSync(join(dir, 'ctx.json'), '{ locale: en }'),
      [...cases(dir, [ok()]), '--ctx', 'ctx.json']
    ),
    code: 'CONTEXT_FILE_INVALID',
    says: [/ctx\.json/, /not valid JSON/],
  },
  {
    name: 'a --ctx field of the wrong type',
    setup: (dir) => (
      writeJson(dir, 'ctx.json', { authorized: { remember_me: 'yes' } }),
      [...cases(dir, [ok()]), '--ctx', 'ctx.json']
    ),
    code: 'CONTEXT_FILE_INVALID',
    says: [/ctx\.json/, /authorized\.remember_me/],
  },
  {
    name: 'a --ctx field with a typo',
    setup: (dir) => (writeJson(dir, 'ctx.json', { locle: 'en' }), [...cases(dir, [ok()]), '--ctx', 'ctx.json']),
    code: 'CONTEXT_FILE_INVALID',
    says: [/ctx\.json/, /unknown field "locle"/, /locale/],
  },
  {
    name: 'a config file with a syntax error',
    setup: (dir) => (
      writeFileSync(join(dir, 'agentest.config.json'), '{"test": {"parallel": 2,}}'),
      cases(dir, [ok()])
    ),
    code: 'CONFIG_LOAD_FAILED',
    says: [/agentest\.config\.json/],
  },
  {
    name: 'a config file that throws',
    setup: (dir) => (
      writeFileSync(join(dir, 'agentest.config.mjs'), 'throw new Error("boom in config")\n'),
      cases(dir, [ok()])
    ),
    code: 'CONFIG_LOAD_FAILED',
    says: [/agentest\.config\.mjs/, /boom in config/],
  },
  {
    name: 'a config key with a typo',
    setup: (dir) => (writeJson(dir, 'agentest.config.json', { tset: { parallel: 2 } }), cases(dir, [ok()])),
    code: 'CONFIG_INVALID',
    says: [/agentest\.config\.json: tset/, /did you mean "test"/],
  },
  {
    name: 'a config value of the wrong type',
    setup: (dir) => (writeJson(dir, 'agentest.config.json', { test: { parallel: 'many' } }), cases(dir, [ok()])),
    code: 'CONFIG_INVALID',
    says: [/agentest\.config\.json: test\.parallel/],
  },
  {
    name: 'a plugin given by name instead of as an object',
    setup: (dir) => (writeJson(dir, 'agentest.config.json', { plugins: ['agentest-plugin-nope'] }), cases(dir, [ok()])),
    code: 'PLUGIN_INVALID',
    says: [/plugins\[0\]/, /expected a plugin object/],
  },
  {
    name: 'an uncalled plugin factory',
    setup: (dir) => (
      writeFileSync(join(dir, 'agentest.config.mjs'), 'export default { plugins: [function myPlugin() {}] }\n'),
      cases(dir, [ok()])
    ),
    code: 'PLUGIN_INVALID',
    says: [/plugins\[0\]/, /call the plugin factory/],
  },
  {
    name: 'an unknown reporter name',
    setup: (dir) => (writeJson(dir, 'agentest.config.json', { reporters: ['htlm'] }), cases(dir, [ok()])),
    code: 'REPORTER_NOT_FOUND',
    says: [/reporters\[0\]/, /unknown reporter "htlm"/, /did you mean/],
  },
  {
    name: 'a reporter path that does not exist',
    setup: (dir) => (
      writeJson(dir, 'agentest.config.json', { reporters: ['./reporters/missing.mjs'] }),
      cases(dir, [ok()])
    ),
    code: 'REPORTER_NOT_FOUND',
    says: [/missing\.mjs/, /not found/],
  },
  {
    name: 'a reporter module with a syntax error',
    setup: (dir) => {
      mkdirSync(join(dir, 'reporters'), { recursive: true });
      writeFileSync(join(dir, 'reporters', 'broken.mjs'), 'export default {{\n');
      writeJson(dir, 'agentest.config.json', { reporters: ['./reporters/broken.mjs'] });
      return cases(dir, [ok()]);
    },
    code: 'REPORTER_NOT_FOUND',
    says: [/broken\.mjs/, /failed to load/],
  },
  {
    name: 'an unknown agent',
    setup: (dir) => (writeCases(dir, 'cases.jsonl', [ok()]), ['-i', 'cases.jsonl', '-n', 'no.such.agent']),
    code: 'AGENT_NOT_FOUND',
    says: [/no\.such\.agent/, /-n/],
  },
  ...(
    [
      ['--runs', '0'],
      ['--parallel', 'lots'],
      ['--timeout', '5 minutes'],
      ['--run', '(unclosed'],
      ['--threshold', 'pass_rate'],
      ['--timeout', '30'],
    ] as const
  ).map(([flag, value]): Scenario => ({
    name: `flag ${flag} ${value}`,
    setup: (dir) => [...cases(dir, [ok()]), flag, value],
    code: 'FLAG_INVALID',
    says: [new RegExp(flag.replace(/-/g, '\\-'))],
  })),
  {
    name: 'an output extension agentest cannot write',
    setup: (dir) => [...cases(dir, [ok()]), '-o', 'report.pdf'],
    code: 'FLAG_INVALID',
    says: [/-o/, /\.pdf/, /\.html/],
  },
];

describe('hostile and broken input: exit 2, one precise message, no stack trace', { concurrency: 4 }, () => {
  for (const scenario of SCENARIOS) {
    test(scenario.name, { ...(scenario.todo ? { todo: scenario.todo } : {}) }, async () => {
      const dir = workspace('input');
      const args = scenario.setup(dir);
      const run = await runCli(['test', ...args], { cwd: dir });
      assert.equal(run.code, 2, `exit code ${run.code}\nstdout: ${run.stdout.slice(-800)}\nstderr: ${run.stderr}`);
      assert.match(run.stderr, new RegExp(`error\\[${scenario.code}\\]`), run.stderr);
      for (const pattern of scenario.says) assert.match(run.stderr, pattern);
      assert.match(run.stderr, /hint: \S/, 'the catalogue fix is printed');
      assert.deepEqual(stackFrames(run.stderr + run.stdout), [], 'no stack trace');
      assert.ok(run.stderr.length < 4_000, `the message is short (${run.stderr.length} chars)`);
    });
  }
});
