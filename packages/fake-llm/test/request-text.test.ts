import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lastUserText, promptLength, tokensForLength } from '../src/request-text.js';

describe('request text', () => {
  it('counts the prompt as its text joined line by line: the system prompt, then every message', () => {
    const body = {
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [
        { role: 'user', content: 'hello' },
        { role: 'assistant', content: [{ type: 'text', text: 'hi' }, { type: 'image' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'one' },
            { type: 'text', text: 'two' },
          ],
        },
      ],
    };
    assert.equal(promptLength(body), ['Be brief.', 'hello', 'hi', 'one\ntwo'].join('\n').length);
    // An OpenAI body has no system field: an empty first line.
    assert.equal(promptLength({ messages: [{ role: 'user', content: 'hello' }] }), '\nhello'.length);
    assert.equal(promptLength({}), 0);
    assert.equal(tokensForLength(0), 1);
    assert.equal(tokensForLength(9), 3);
    assert.equal(lastUserText(body), 'one\ntwo');
  });
});
