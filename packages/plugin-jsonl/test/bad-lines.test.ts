import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AgentestError } from '@agentest/kernel';
import { loadText } from './helpers.js';

const OK = '{"id": "ok", "input": "fine"}';

/** [what, file content, error code, message]: every kind of bad line, reported as file:line. */
const badLines: [string, string | Buffer, string, string | RegExp][] = [
  [
    'invalid JSON',
    `${OK}\n{"id": "T2", "input": }`,
    'INPUT_INVALID',
    /^cases\.jsonl:2: invalid JSON \(Unexpected token .*\) — write one complete JSON object per line/,
  ],
  [
    'a pretty-printed object',
    '{\n  "id": "T1",\n  "input": "x"\n}',
    'INPUT_INVALID',
    /^cases\.jsonl:1: invalid JSON \(.*\) — write one complete JSON object per line; objects spread over several lines are not supported$/,
  ],
  [
    'an array line',
    '[1, 2]',
    'INPUT_INVALID',
    'cases.jsonl:1: expected a JSON object, got array — write one case object per line, e.g. {"id": "T001", "input": "Hello"}',
  ],
  ['a bare string line', '"hello"', 'INPUT_INVALID', /^cases\.jsonl:1: expected a JSON object, got string/],
  [
    'a missing id',
    '{"input": "x"}',
    'INPUT_INVALID',
    'cases.jsonl:1: missing required field "id" — give every case a unique string id, e.g. "T001"',
  ],
  [
    'a numeric id',
    '{"id": 1, "input": "x"}',
    'INPUT_INVALID',
    'cases.jsonl:1: field "id" must be a string, got 1 — give every case a unique string id, e.g. "T001"',
  ],
  [
    'an empty id',
    '{"id": "", "input": "x"}',
    'INPUT_INVALID',
    /^cases\.jsonl:1: field "id" must be a non-empty string, got ""/,
  ],
  [
    'a missing input',
    `${OK}\n\n{"id": "T3"}`,
    'INPUT_INVALID',
    'cases.jsonl:3: case "T3" is missing required field "input" — give the message to send, e.g. "input": "Hello"',
  ],
  [
    'a null input',
    '{"id": "T1", "input": null}',
    'INPUT_INVALID',
    /^cases\.jsonl:1: case "T1" is missing required field "input"/,
  ],
  [
    'a numeric input',
    '{"id": "T1", "input": 42}',
    'INPUT_INVALID',
    'cases.jsonl:1: case "T1": "input" must be a string, a message object or an array of messages, got number — see "Input Types" in the docs for the shapes an input can take',
  ],
  ['a boolean input', '{"id": "T1", "input": true}', 'INPUT_INVALID', /got boolean/],
  ['an empty conversation', '{"id": "T1", "input": []}', 'INPUT_INVALID', /"input" is an empty array/],
  [
    'a message without content',
    '{"id": "T1", "input": {"role": "user"}}',
    'INPUT_INVALID',
    /^cases\.jsonl:1: case "T1": the message is missing its "content" field/,
  ],
  [
    'a non-object in a conversation',
    '{"id": "T1", "input": [{"role": "user", "content": "a"}, 7]}',
    'INPUT_INVALID',
    /message 1 must be an object with "role" and "content", got number/,
  ],
  [
    'a numeric content',
    '{"id": "T1", "input": {"role": "user", "content": 5}}',
    'INPUT_INVALID',
    /"content" must be a string, a content part or an array of parts, got number/,
  ],
  [
    'a text part without text',
    '{"id": "T1", "input": {"content": [{"type": "text"}]}}',
    'INPUT_INVALID',
    /content part 0 \(text\) needs a string "text"/,
  ],
  [
    'a missing attachment',
    '{"id": "T1", "input": {"content": [{"type": "image", "source": "file://nope.png"}]}}',
    'INPUT_INVALID',
    /^cases\.jsonl:1: case "T1": content part 0 \(image\): file not found: .*\/nope\.png \(from "file:\/\/nope\.png"; relative paths start at /,
  ],
  [
    'bad tool_calls',
    '{"id": "T1", "input": {"role": "assistant", "content": "", "tool_calls": [{"function": {}}]}}',
    'INPUT_INVALID',
    /tool_calls\[0\] needs \{"function": \{"name"/,
  ],
  [
    'skip as a string',
    '{"id": "T1", "input": "x", "skip": "true"}',
    'INPUT_INVALID',
    'cases.jsonl:1: field "skip" must be true or false (without quotes), got "true" — write true or false',
  ],
  [
    'user as a number',
    '{"id": "T1", "input": "x", "user": 7}',
    'INPUT_INVALID',
    'cases.jsonl:1: field "user" must be a string, got 7 — correct the field, or remove it',
  ],
  [
    'metadata as an array',
    '{"id": "T1", "input": "x", "metadata": [1]}',
    'INPUT_INVALID',
    /field "metadata" must be an object, got array — use an object/,
  ],
  [
    'options as a string',
    '{"id": "T1", "input": "x", "options": "fast"}',
    'INPUT_INVALID',
    /field "options" must be an object, got "fast"/,
  ],
  [
    'timeout as a number',
    '{"id": "T1", "input": "x", "timeout": 30}',
    'INPUT_INVALID',
    /field "timeout" must be a duration string such as "30s" or "2m30s", got 30/,
  ],
  [
    'a timeout without a unit',
    '{"id": "T1", "input": "x", "timeout": "30"}',
    'INPUT_INVALID',
    /^cases\.jsonl:1: field "timeout" has no unit: "30" — write "30s" for 30 seconds \(or "30ms" if milliseconds were meant\)$/,
  ],
  [
    'an invalid timeout',
    '{"id": "T1", "input": "x", "timeout": "5 minutes"}',
    'INPUT_INVALID',
    'cases.jsonl:1: field "timeout" is not a duration: "5 minutes" — use a Go duration such as "30s", "2m" or "1m30s"',
  ],
  [
    'assert as a number',
    '{"id": "T1", "input": "x", "assert": 3}',
    'INPUT_INVALID',
    /field "assert" must be an assertion object or a type name, got number/,
  ],
  [
    'a non-object in an assert array',
    '{"id": "T1", "input": "x", "assert": [{"type": "contains", "value": "a"}, 3]}',
    'INPUT_INVALID',
    /field "assert\[1\]" must be an assertion object or a type name, got number/,
  ],
  [
    'negate as a string',
    '{"id": "T1", "input": "x", "assert": {"type": "contains", "negate": "yes"}}',
    'INPUT_INVALID',
    /field "assert\.negate" must be true or false \(without quotes\), got "yes" — see "Assertions"/,
  ],
  [
    'a numeric assertion type',
    '{"id": "T1", "input": "x", "assert": [{"type": 5}]}',
    'INPUT_INVALID',
    /field "assert\[0\]\.type" must be a string, got 5/,
  ],
  [
    'a duplicate id',
    `${OK}\n{"id": "T2", "input": "x"}\n${OK}`,
    'DUPLICATE_CASE_ID',
    'cases.jsonl:3: duplicate id "ok" (first used on line 1) — give every case a unique id',
  ],
  [
    'invalid UTF-8',
    Buffer.concat([Buffer.from(`${OK}\n{"id": "T2", "input": "`), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]),
    'INPUT_INVALID',
    'cases.jsonl:2: the line is not valid UTF-8 — save the file as UTF-8',
  ],
];

for (const [what, content, code, message] of badLines) {
  test(`bad line: ${what}`, async () => {
    await assert.rejects(loadText(content), (error: AgentestError) => {
      assert.equal(error.code, code);
      if (typeof message === 'string') assert.equal(error.message, message);
      else assert.match(error.message, message);
      assert.match(error.where ?? '', /^cases\.jsonl:\d+$/);
      return true;
    });
  });
}

test('a real U+FFFD character in valid UTF-8 is not mistaken for a decoding error', async () => {
  const [testCase] = await loadText('{"id": "T1", "input": "replacement \uFFFD char"}\n');
  assert.equal(testCase!.messages[0]!.content, 'replacement \uFFFD char');
});

test('a line over the size limit is an error naming the line, found without buffering it whole', async () => {
  const long = `{"id": "big", "input": "${'x'.repeat(5000)}"}`;
  await assert.rejects(loadText(`${OK}\n${long}\n`, { maxLineBytes: 2048 }), (error: AgentestError) => {
    assert.equal(error.code, 'INPUT_INVALID');
    assert.match(error.message, /^cases\.jsonl:2: the line is longer than 2 KiB — keep one case per line/);
    return true;
  });
});

test('a line larger than one read chunk loads when under the limit', async () => {
  const text = 'y'.repeat(3 * 1024 * 1024);
  const [first, second] = await loadText(`{"id": "huge", "input": "${text}"}\n{"id": "next", "input": "after"}`);
  assert.equal((first!.messages[0]!.content as string).length, text.length);
  assert.equal(second!.id, 'next');
  assert.equal(second!.source.line, 2);
});
