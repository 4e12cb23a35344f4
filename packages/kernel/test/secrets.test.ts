import { test } from 'node:test';
import assert from 'node:assert/strict';
import createDebug from 'debug';
import { createKernel } from '../src/index.js';
import { hasSecrets, redactSecrets, redactText, registerSecret } from '../src/secrets.js';
import { collector, inlinePlugins, plan, testCase } from './helpers.js';

// One registry per process: this file's tests register their own values and never rely on an empty one.
const KEY = 'sk-kernel-test-0123456789abcdef';

test('redactSecrets replaces registered values in strings at any depth, copying only what changes', () => {
  registerSecret(KEY);
  registerSecret('short');
  assert.equal(hasSecrets(), true);
  const untouched = { a: ['x', { b: 'y' }], n: 1, d: new Date(0) };
  assert.equal(redactSecrets(untouched), untouched, 'no secret: the same object, no copy');
  const event = { id: 'a', output: `key ${KEY}!`, runs: [{ trace: { body: [KEY, 'ok'] } }], keep: { plain: 'x' } };
  const shown = redactSecrets(event);
  assert.deepEqual(shown, {
    id: 'a',
    output: 'key [redacted]!',
    runs: [{ trace: { body: ['[redacted]', 'ok'] } }],
    keep: { plain: 'x' },
  });
  assert.equal(shown.keep, event.keep, 'branches without a secret are shared');
  assert.equal(event.output, `key ${KEY}!`, 'the original is not changed');
  assert.equal(redactText('a short word'), 'a short word', `values under 8 characters are not registered`);
});

test('through createKernel: reporters see the key redacted, the verdict is judged on the raw reply', async () => {
  registerSecret(KEY);
  const c = collector();
  const cases = [
    testCase('echo', {
      input: `my key is ${KEY}`,
      messages: [{ role: 'user', content: `my key is ${KEY}` }],
      assert: [{ type: 'contains', value: KEY }],
    }),
  ];
  const outcome = await createKernel({ plugins: [...inlinePlugins(cases), c.plugin] }).run(plan());
  assert.equal(outcome.summary.passed, 1, 'the contains assertion saw the raw output');
  const text = JSON.stringify(c.events);
  assert.ok(!text.includes(KEY), 'no event carries the key');
  assert.match(text, /my key is \[redacted\]/);
});

test('debug lines are redacted once a secret is registered', () => {
  registerSecret(KEY);
  const lines: unknown[][] = [];
  const log = createDebug('agentest:test-secrets');
  log.enabled = true;
  log.useColors = false;
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string) => (lines.push([chunk]), true)) as typeof process.stderr.write;
  try {
    log('sending %s with %o', KEY, { authorization: `Bearer ${KEY}` });
  } finally {
    process.stderr.write = write;
  }
  const text = lines.flat().join('');
  assert.ok(!text.includes(KEY), text);
  assert.match(text, /sending \[redacted\]/);
});
