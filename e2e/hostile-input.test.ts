/**
 * Hostile and broken input through the real CLI: each must stop the run before any agent is called
 * with exit code 2 and one precise message — the file and line (or flag, or config key) at fault,
 * the field, and what to do — and never a stack trace.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cases, describeScenarios, ok, type Scenario } from './helpers/scenarios.js';

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
];

describeScenarios('hostile and broken input: exit 2, one precise message, no stack trace', SCENARIOS);
