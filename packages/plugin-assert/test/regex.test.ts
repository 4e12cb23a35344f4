import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtinAssertion, runAssertion } from '../src/index.js';
import { assertInput, HANG_MS, testAssertion } from './helpers.js';

testAssertion({
  type: 'regex',
  accept: [
    { output: 'call 555-1234 now', value: '\\d{3}-\\d{4}' },
    { output: 'Say HELLO', value: '(?i)hello', description: 'RE2 inline flags' },
    { output: 'Say HELLO', value: '/hello/i', description: 'a JavaScript literal with a flag' },
    { output: 'line1\nline2', value: '(?m)^line2$', description: '(?m) makes ^ and $ match at line breaks' },
    { output: { n: 42 }, value: '"n":4\\d', description: 'objects are matched as compact JSON' },
    { output: '价格: 42元', value: '\\d+元' },
  ],
  reject: [
    { output: 'no digits', value: '\\d+', reason: "output does not match pattern '\\d+'" },
    {
      output: 'line1\nline2',
      value: '^line2$',
      reason: "output does not match pattern '^line2$'",
      description: '^ and $ anchor the whole text without (?m)',
    },
  ],
  unjudged: [
    { output: 'abc', value: 42, reason: 'invalid regex assertion: regex pattern must be a string in "value"' },
    { output: 'abc', value: 'a(', reason: /^invalid regex pattern: missing closing \): `a\(`$/ },
    { output: 'ab', value: '(?<=a)b', reason: /^invalid regex pattern: /, description: 'lookbehind is not RE2' },
    { output: 'aa', value: '(a)\\1', reason: /^invalid regex pattern: /, description: 'backreferences are not RE2' },
  ],
});

test('a catastrophic-backtracking pattern finishes in linear time', () => {
  const started = performance.now();
  const outcome = runAssertion(
    builtinAssertion('regex')!,
    { type: 'regex', value: '(a+)+$' },
    assertInput(`${'a'.repeat(50_000)}b`),
  );
  const elapsed = performance.now() - started;
  assert.equal(outcome.pass, false);
  // Backtracking over 50,000 letters would never end; linear time takes milliseconds.
  assert.ok(elapsed < HANG_MS, `took ${elapsed.toFixed(0)}ms`);
});
