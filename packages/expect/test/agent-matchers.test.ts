import { table } from './table.js';

/** A reply with structured content and a tool call; `raw` holds what the matchers must not read. */
const reply = {
  content: { answer: 'ok', items: [{ id: 7, tags: ['a'] }] },
  toolCalls: [{ name: 'search', arguments: { q: 'refund', limit: 5 } }],
  raw: { tool_calls: [{ function: { name: 'ignored', arguments: '{}' } }] },
};

table('agent matchers', [
  { name: 'toHaveCalledTool by name', run: (e) => e(reply).toHaveCalledTool('search') },
  {
    name: 'toHaveCalledTool with a subset of the arguments',
    run: (e) => e(reply).toHaveCalledTool('search', { q: 'refund' }),
  },
  {
    name: 'toHaveCalledTool with wrong arguments',
    run: (e) => e(reply).toHaveCalledTool('search', { q: 'order' }),
    fails: /expected a call to tool "search" with \{ q: "order" \}, calls made: search\(\{ q: "refund", limit: 5 \}\)/,
  },
  {
    name: 'toHaveCalledTool on OpenAI-shaped calls with JSON arguments',
    run: (e) =>
      e({ tool_calls: [{ function: { name: 'pay', arguments: '{"amount":3}' } }] }).toHaveCalledTool('pay', {
        amount: 3,
      }),
  },
  {
    name: 'toHaveCalledTool when nothing was called',
    run: (e) => e({ content: 'hi' }).toHaveCalledTool('search'),
    fails: /calls made: none/,
  },
  {
    name: 'not.toHaveCalledTool',
    run: (e) => e(reply).not.toHaveCalledTool('search'),
    fails: /^expected no call to tool "search", calls made: search/,
  },
  { name: 'toMatchJsonPath with a value', run: (e) => e(reply).toMatchJsonPath('$.content.items[0].id', 7) },
  { name: 'toMatchJsonPath without the root', run: (e) => e(reply).toMatchJsonPath('content.items[*].tags', ['a']) },
  { name: 'toMatchJsonPath existence', run: (e) => e(reply).toMatchJsonPath('$.content.answer') },
  {
    name: 'toMatchJsonPath wrong value',
    run: (e) => e(reply).toMatchJsonPath('$.content.answer', 'no'),
    fails: /^expected \$\.content\.answer to equal "no", got "ok"$/,
  },
  {
    name: 'toMatchJsonPath nothing found',
    run: (e) => e(reply).toMatchJsonPath('$.content.missing', 1),
    fails: /got nothing/,
  },
  {
    name: 'not.toMatchJsonPath',
    run: (e) => e(reply).not.toMatchJsonPath('$.content.answer', 'ok'),
    fails: /not to equal "ok"/,
  },
  {
    name: 'toMatchJsonPath parses a string holding JSON',
    run: (e) => e('{"a": {"b": [1, 2]}}').toMatchJsonPath('$.a.b[1]', 2),
  },
  { name: 'not.toMatchJsonPath judges a string holding JSON', run: (e) => e('{"a": 1}').not.toMatchJsonPath('$.a', 2) },
]);
