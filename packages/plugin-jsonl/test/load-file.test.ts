import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';
import type { TestCase } from '@agentest/kernel';
import { collect, FIXTURES, load } from './helpers.js';

async function fixtureCases(): Promise<Map<string, TestCase>> {
  const suite = await load('cases.jsonl');
  assert.ok(suite, 'the .jsonl file is claimed');
  return new Map((await collect(suite)).map((c) => [c.id, c]));
}

test('the suite: agent cases found from the file path, 5 minute default, named as given', async () => {
  const suite = (await load('cases.jsonl'))!;
  assert.equal(suite.name, 'cases.jsonl');
  assert.equal(suite.needsAgent, true);
  assert.deepEqual(suite.agentHint, { path: join(FIXTURES, 'cases.jsonl') });
  assert.equal(suite.defaultTimeoutMs, 300_000);
});

test('blank lines and // comments are skipped; source lines are the file lines', async () => {
  const cases = await fixtureCases();
  assert.deepEqual(
    [...cases.keys()],
    ['T001', 'T002', 'T003', 'T004', 'T005', 'T006', 'T007', 'T008', 'T009', 'T010', 'T011', 'T012', 'T013'],
  );
  assert.deepEqual(cases.get('T001')!.source, { file: 'cases.jsonl', line: 2 });
  assert.deepEqual(cases.get('T003')!.source, { file: 'cases.jsonl', line: 5 });
  assert.equal(cases.get('T005')!.source.line, 8);
});

const shapes: [id: string, messages: unknown][] = [
  ['T001', [{ role: 'user', content: 'Simple text input' }]],
  ['T002', [{ role: 'user', content: 'Message with role' }]],
  ['T003', [{ role: 'user', content: [{ type: 'text', text: 'ContentPart array' }] }]],
  [
    'T004',
    [
      { role: 'user', content: 'First message' },
      { role: 'assistant', content: 'Response' },
      { role: 'user', content: 'Follow-up' },
    ],
  ],
  [
    'T010',
    [
      {
        role: 'user',
        content: [
          {
            type: 'image_url',
            image_url: {
              url: `data:image/png;base64,${Buffer.from('\x89PNG\r\n\x1a\n0000', 'latin1').toString('base64')}`,
              detail: 'auto',
            },
          },
        ],
      },
    ],
  ],
  [
    'T011',
    [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Describe' },
          {
            type: 'file',
            file: {
              url: `data:text/plain;base64,${Buffer.from('meeting notes\n').toString('base64')}`,
              filename: 'notes.txt',
            },
          },
          { type: 'input_audio', input_audio: { data: Buffer.from('RIFF0000WAVE').toString('base64'), format: 'wav' } },
        ],
      },
    ],
  ],
  [
    'T012',
    [
      { role: 'system', content: 'Be brief' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'found' },
    ],
  ],
];
for (const [id, messages] of shapes) {
  test(`input shape of ${id} is normalised into messages`, async () => {
    const testCase = (await fixtureCases()).get(id)!;
    assert.deepEqual(testCase.messages, messages);
    assert.equal(testCase.kind, 'agent');
  });
}

test('the raw input is kept for results', async () => {
  assert.deepEqual((await fixtureCases()).get('T002')!.input, { role: 'user', content: 'Message with role' });
});

test('expected without assert becomes a structural equals assertion', async () => {
  const testCase = (await fixtureCases()).get('T005')!;
  assert.deepEqual(testCase.expected, { keywords: ['keyword1', 'keyword2'] });
  assert.deepEqual(testCase.assert, [{ type: 'equals', value: { keywords: ['keyword1', 'keyword2'] } }]);
});

test('assert wins over expected; the string shorthand is {type}; a missing type is equals', async () => {
  const cases = await fixtureCases();
  assert.deepEqual(cases.get('T008')!.assert, [{ type: 'type' }]);
  assert.equal(cases.get('T008')!.expected, 'ignored for verdicts');
  assert.deepEqual(cases.get('T009')!.assert, [
    { type: 'contains', value: 'x', negate: true },
    { type: 'regex' },
    { type: 'equals', value: 1 },
  ]);
});

test('user, team, metadata, options, skip and timeout are carried over', async () => {
  const cases = await fixtureCases();
  const t6 = cases.get('T006')!;
  assert.equal(t6.user, 'admin');
  assert.equal(t6.team, 'ops-team');
  assert.deepEqual(t6.metadata, { tag: 'smoke' });
  assert.deepEqual(t6.options, { connector: 'deepseek.v3' });
  assert.equal(cases.get('T007')!.skip, true);
  assert.equal(cases.get('T007')!.timeoutMs, 150_000);
  assert.equal(cases.get('T001')!.timeoutMs, undefined);
});

test("Yao's per-case hook fields are kept in data for the executor that runs them", async () => {
  const testCase = (await fixtureCases()).get('T013')!;
  assert.deepEqual(testCase.data, { before: 'env_test.Before', after: 'env_test.After' });
});

test('file:// paths start at the JSONL file directory; CRLF line endings and a last line without newline load', async () => {
  // The attachment is in a sibling folder of the suite's: the files.allow option admits it.
  const cases = await collect((await load('nested/relative.jsonl', FIXTURES, { files: { allow: ['attachments'] } }))!);
  assert.deepEqual(
    cases.map((c) => c.id),
    ['N001', 'N002'],
  );
  assert.deepEqual(cases[0]!.source, { file: join('nested', 'relative.jsonl'), line: 1 });
  const part = (cases[0]!.messages[0]!.content as { image_url: { url: string; detail: string } }[])[0]!;
  assert.match(part.image_url.url, /^data:image\/png;base64,/);
  assert.equal(part.image_url.detail, 'high');
  assert.equal(cases[1]!.messages[0]!.content, 'crlf');
});

test('a byte-order mark at the start is ignored', async () => {
  const [only] = await collect((await load('nested/bom.jsonl'))!);
  assert.equal(only!.id, 'B001');
});

test('cases() can be read twice: each call streams the file afresh', async () => {
  const suite = (await load('cases.jsonl'))!;
  const first = await collect(suite);
  const second = await collect(suite);
  assert.equal(first.length, 13);
  assert.deepEqual(second, first);
});

test('an existing file without the .jsonl extension is read when its content is JSONL', async () => {
  const suite = await load('nested/cases-without-extension');
  assert.ok(suite);
  assert.deepEqual(
    (await collect(suite)).map((c) => c.id),
    ['X001'],
  );
});
