import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixture, jsonl } from './helpers.js';
import { agentestInProcess as agentest } from './in-process.js';

const LABELLED = jsonl([{ id: 'T1', input: 'hello', labels: ['smoke'], assert: { type: 'contains', value: 'hello' } }]);

test("an unknown case key is exit 2 at file:line before any case; the config's jsonl.extraKeys admits it", async () => {
  const bare = fixture({ 'tests/inputs.jsonl': LABELLED });
  const refused = await agentest(['test', '-i', 'tests/inputs.jsonl', '-n', 'echo'], { cwd: bare });
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(refused.stderr, /^error\[INPUT_INVALID\]: tests\/inputs\.jsonl:1: unknown field "labels"/);
  assert.doesNotMatch(refused.stdout, /T1/, 'no case ran');

  const configured = fixture({
    'tests/inputs.jsonl': LABELLED,
    'agentest.config.json': JSON.stringify({ jsonl: { extraKeys: ['labels'] } }),
  });
  const ran = await agentest(['test', '-i', 'tests/inputs.jsonl', '-n', 'echo', '--no-jsonl'], { cwd: configured });
  assert.equal(ran.code, 0, ran.stderr);
});

test('files.allow in the config (relative to it) admits attachments outside the suite folder', async () => {
  const files = {
    'tests/inputs.jsonl': jsonl([
      {
        id: 'F1',
        input: [{ type: 'file', source: 'file://../shared/notes.txt' }],
        assert: { type: 'type', value: 'string' },
      },
    ]),
    'shared/notes.txt': 'notes',
  };
  const refused = await agentest(['test', '-i', 'tests/inputs.jsonl', '-n', 'echo'], { cwd: fixture(files) });
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(
    refused.stderr,
    /tests\/inputs\.jsonl:1: case "F1": content part 0 \(file\): .*notes\.txt .* is outside the suite's folder and the app root/,
  );

  const allowed = fixture({
    ...files,
    'agentest.config.json': JSON.stringify({ files: { allow: ['shared'], maxBytes: 1000 } }),
  });
  const ran = await agentest(['test', '-i', 'tests/inputs.jsonl', '-n', 'echo', '--no-jsonl'], { cwd: allowed });
  assert.equal(ran.code, 0, ran.stderr + ran.stdout);
});

test('the jsonl and files sections are checked like the rest of the config', async () => {
  const dir = fixture({
    'tests/inputs.jsonl': LABELLED,
    'agentest.config.json': JSON.stringify({ jsonl: { extraKey: ['tags'] } }),
  });
  const run = await agentest(['test', '-i', 'tests/inputs.jsonl', '-n', 'echo'], { cwd: dir });
  assert.equal(run.code, 2);
  assert.match(
    run.stderr,
    /^error\[CONFIG_INVALID\]: .*agentest\.config\.json: jsonl\.extraKey: unknown key \(did you mean "extraKeys"\?\)/,
  );
});

test('a missing input is INPUT_NOT_FOUND whatever its extension, never "no loader"', async () => {
  const dir = fixture({});
  for (const input of ['tests/nope.json', 'tests/nope.jsonl', './nope']) {
    const run = await agentest(['test', '-i', input, '-n', 'echo'], { cwd: dir });
    assert.equal(run.code, 2, input);
    assert.match(run.stderr, /^error\[INPUT_NOT_FOUND\]: input file not found: /, input);
  }
});
