import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalRequest, PriceTable, requestHash } from '../src/index.js';
import { jsonDifference } from '../src/json-difference.js';
import { caseFile } from '../src/cassette-file.js';

describe('cassette keys', () => {
  it('the key ignores volatile fields and key order, and nothing else', () => {
    const a = canonicalRequest({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      temperature: 0,
    });
    const b = canonicalRequest({ temperature: 0, messages: [{ content: 'hi', role: 'user' }], model: 'm', user: 'x' });
    assert.equal(requestHash(a), requestHash(b));
    assert.notEqual(requestHash(a), requestHash({ ...a, temperature: 1 }));
  });

  it('a difference is shown by path, a long text around where it changes', () => {
    const prompt = `${'You are helpful. '.repeat(20)}Answer in French.`;
    const lines = jsonDifference(
      { messages: [{ content: prompt }], tools: ['a'] },
      { messages: [{ content: prompt.replace('French', 'German') }], tools: ['a', 'b'] },
    );
    assert.equal(lines.length, 2);
    assert.match(lines[0]!, /^\$\.messages\[0\]\.content: "….*Answer in French\." → "….*Answer in German\."$/);
    assert.equal(lines[1], '$.tools[1]: (absent) → "b"');
  });

  it('case ids that are not file names get a file of their own each', () => {
    assert.match(caseFile('/d', 'T001'), /\/d\/T001\.jsonl$/);
    assert.notEqual(caseFile('/d', 'a/b'), caseFile('/d', 'a?b'));
    assert.match(caseFile('/d', 'a/b'), /\/d\/a_b-[0-9a-f]{8}\.jsonl$/);
  });
});

describe('prices', () => {
  it('config prices win; defaults match dated model names by prefix; unknown models have none', () => {
    const table = new PriceTable({ 'openai/gpt-4o': { input: 1, output: 2 }, 'my.connector': { input: 3, output: 4 } });
    assert.deepEqual(table.priceOf('x', 'openai', 'gpt-4o'), { input: 1, output: 2 });
    assert.deepEqual(table.priceOf('my.connector', 'openai', 'gpt-4o'), { input: 3, output: 4 });
    assert.deepEqual(table.priceOf('x', 'openai', 'gpt-4o-mini-2024-07-18'), { input: 0.15, output: 0.6 });
    assert.equal(table.priceOf('x', 'openai', 'llama3'), undefined);
  });

  it('a malformed price names its key', () => {
    assert.throws(() => new PriceTable({ 'gpt-4o': { input: -1 } }), /prices\["gpt-4o"\] must be \{ input, output \}/);
  });
});
