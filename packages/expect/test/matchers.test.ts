import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AssertionError, expect, judging, subjects, type Assertion } from '../src/index.js';
import { table } from './table.js';

const result = {
  case_id: 'C1',
  query: 'q',
  elapsed_ms: 12,
  error: null,
  structure_ok: true,
  intent_matched: true,
  keyword_hits: ['refund'],
  keyword_hit_rate: 0.5,
  quality_score: 4,
  failure_details: [],
  normalized_categories: ['refund_request'],
  raw: { code: 0, data: { reply: '可以申请退款', sessionId: 's1', intent: 'refund_request' } },
};

table('general matchers', [
  { name: 'toBe passes on identity', run: (e) => e(3).toBe(3) },
  { name: 'toBe uses Object.is (NaN is NaN)', run: (e) => e(NaN).toBe(NaN) },
  { name: 'toBe fails with expected and actual', run: (e) => e(4).toBe(3), fails: /^expected 4 to be 3$/ },
  { name: 'toBe on equal objects points to toEqual', run: (e) => e({ a: 1 }).toBe({ a: 1 }), fails: /use toEqual/ },
  { name: 'not.toBe fails on identity', run: (e) => e('x').not.toBe('x'), fails: /^expected "x" not to be "x"$/ },
  { name: 'toEqual ignores key order', run: (e) => e({ a: 1, b: { c: [1, 2] } }).toEqual({ b: { c: [1, 2] }, a: 1 }) },
  { name: 'toEqual ignores undefined properties', run: (e) => e({ a: 1, b: undefined }).toEqual({ a: 1 }) },
  { name: 'toEqual compares Maps by content', run: (e) => e(new Map([['a', 1]])).not.toEqual(new Map([['a', 2]])) },
  { name: 'toEqual compares Sets by content', run: (e) => e(new Set([{ a: 1 }])).toEqual(new Set([{ a: 1 }])) },
  { name: 'toEqual compares Dates by time', run: (e) => e(new Date(0)).not.toEqual(new Date(1)) },
  {
    name: 'toEqual says where values differ',
    run: (e) => e({ a: { b: [1, 2] } }).toEqual({ a: { b: [1, 3] } }),
    fails: /first difference at \.a\.b\[1\]/,
  },
  {
    name: 'toEqual tells an array from an object',
    run: (e) => e([]).toEqual({}),
    fails: /expected \[\] to equal \{\}/,
  },
  { name: 'toBeTruthy', run: (e) => e(0).toBeTruthy(), fails: /^expected 0 to be truthy$/ },
  { name: 'toBeFalsy', run: (e) => e('x').toBeFalsy(), fails: /^expected "x" to be falsy$/ },
  { name: 'toBeNull rejects undefined', run: (e) => e(undefined).toBeNull(), fails: /^expected undefined to be null$/ },
  { name: 'toBeUndefined', run: (e) => e(null).toBeUndefined(), fails: /expected null to be undefined/ },
  { name: 'toBeDefined', run: (e) => e(undefined).toBeDefined(), fails: /expected undefined to be defined/ },
  { name: 'not.toBeDefined', run: (e) => e(1).not.toBeDefined(), fails: /expected 1 not to be defined/ },
  { name: 'toContain finds a substring', run: (e) => e('退款申请').toContain('退款') },
  { name: 'toContain finds an element structurally', run: (e) => e([{ id: 1 }]).toContain({ id: 1 }) },
  {
    name: 'toContain fails with both values',
    run: (e) => e(['a']).toContain('b'),
    fails: /^expected \["a"\] to contain "b"$/,
  },
  {
    name: 'toContain refuses null instead of searching "null"',
    run: (e) => e(null).toContain('ul'),
    fails: /needs a string, an array or a Set, got null/,
  },
  { name: 'not.toContain refuses null too', run: (e) => e(null).not.toContain('ul'), fails: /needs a string/ },
  { name: 'toMatch with a RegExp', run: (e) => e('order 42').toMatch(/\d+/) },
  {
    name: 'toMatch with a global RegExp twice',
    run: (e) => {
      const r = /a/g;
      e('a').toMatch(r);
      e('a').toMatch(r);
    },
  },
  { name: 'toMatch fails', run: (e) => e('abc').toMatch(/z/), fails: /expected "abc" to match \/z\// },
  { name: 'toMatch refuses a non-string', run: (e) => e(5).toMatch(/5/), fails: /toMatch needs a string, got 5/ },
  { name: 'toHaveLength', run: (e) => e([1, 2]).toHaveLength(3), fails: /expected \[1, 2\] to have length 3, got 2/ },
  { name: 'toHaveLength refuses a number', run: (e) => e(3).not.toHaveLength(1), fails: /needs a value with a length/ },
  { name: 'toHaveProperty by dotted path', run: (e) => e({ a: { b: [{ c: 1 }] } }).toHaveProperty('a.b[0].c', 1) },
  { name: 'toHaveProperty by array path', run: (e) => e({ 'x.y': 1 }).toHaveProperty(['x.y']) },
  {
    name: 'toHaveProperty with a wrong value',
    run: (e) => e({ a: 1 }).toHaveProperty('a', 2),
    fails: /to have property "a" equal to 2, got 1/,
  },
  { name: 'toHaveProperty missing', run: (e) => e({ a: 1 }).toHaveProperty('b.c'), fails: /to have property "b\.c"/ },
  {
    name: 'toHaveProperty accepts an explicit undefined value',
    run: (e) => e({ a: undefined }).toHaveProperty('a', undefined),
  },
]);

table('number matchers', [
  { name: 'toBeGreaterThan', run: (e) => e(2).toBeGreaterThan(3), fails: /^expected 2 to be greater than 3$/ },
  { name: 'toBeGreaterThanOrEqual at the limit', run: (e) => e(3).toBeGreaterThanOrEqual(3) },
  { name: 'toBeLessThan', run: (e) => e(3).toBeLessThan(3), fails: /expected 3 to be less than 3/ },
  { name: 'toBeLessThanOrEqual', run: (e) => e(4).toBeLessThanOrEqual(3), fails: /less than or equal to 3/ },
  { name: 'chains', run: (e) => e(5).toBeGreaterThan(1).toBeLessThan(10) },
  {
    name: 'a numeric string is not a number',
    run: (e) => e('5').toBeGreaterThan(3),
    fails: /needs the received value to be a number, got "5"/,
  },
  {
    name: 'a numeric string fails under .not as well',
    run: (e) => e('5').not.toBeGreaterThan(3),
    fails: /to be a number/,
  },
  { name: 'bigints compare', run: (e) => e(10n).toBeGreaterThan(9) },
  { name: 'toBeCloseTo accepts float noise', run: (e) => e(0.1 + 0.2).toBeCloseTo(0.3) },
  {
    name: 'toBeCloseTo with digits',
    run: (e) => e(0.31).toBeCloseTo(0.3, 2),
    fails: /to be close to 0\.3 \(within 0\.005\), difference/,
  },
]);

table('AI matchers', [
  { name: 'toHaveStructure', run: (e) => e(result).toHaveStructure() },
  {
    name: 'toHaveStructure is strict (1 is not true)',
    run: (e) => e({ structure_ok: 1 }).toHaveStructure(),
    fails: /expected structure_ok to be true, got 1/,
  },
  {
    name: 'toHaveStructure shows the error',
    run: (e) => e({ structure_ok: false, error: 'HTTP 500' }).toHaveStructure(),
    fails: /error: HTTP 500/,
  },
  {
    name: 'toHaveStructure refuses a non-object',
    run: (e) => e('text').not.toHaveStructure(),
    fails: /needs an agent result object/,
  },
  { name: 'toHaveIntent reads normalized_categories', run: (e) => e(result).toHaveIntent('refund_request') },
  {
    name: 'toHaveIntent reads raw.intent',
    run: (e) => e({ raw: { intent: 'order_tracking' } }).toHaveIntent('order_tracking'),
  },
  { name: 'toHaveIntent reads raw_intent', run: (e) => e({ raw_intent: 'account' }).toHaveIntent('account') },
  {
    name: 'toHaveIntent shows what it got',
    run: (e) => e(result).toHaveIntent('order_tracking'),
    fails: /^expected intent to be "order_tracking", got \["refund_request"\]$/,
  },
  {
    name: 'not.toHaveIntent',
    run: (e) => e(result).not.toHaveIntent('refund_request'),
    fails: /expected intent not to be "refund_request"/,
  },
  {
    name: 'toHaveIntent without any intent fails both ways',
    run: (e) => e({ structure_ok: true }).not.toHaveIntent('x'),
    fails: /carries no intent/,
  },
  {
    name: 'toHaveKeyword',
    run: (e) => e(result).toHaveKeyword('退款'),
    fails: /expected keyword "退款" to be hit, hits: \["refund"\]/,
  },
  {
    name: 'toHaveKeyword without keyword_hits fails both ways',
    run: (e) => e({}).not.toHaveKeyword('x'),
    fails: /no keyword_hits/,
  },
  { name: 'toMention finds CJK text in the raw response', run: (e) => e(result).toMention('退款') },
  {
    name: 'toMention ignores key names',
    run: (e) => e(result).toMention('sessionId'),
    fails: /expected response to mention "sessionId"/,
  },
  { name: 'toMention ignores JSON punctuation', run: (e) => e(result).not.toMention('"') },
  { name: 'toMention refuses an empty word', run: (e) => e(result).toMention(''), fails: /non-empty string/ },
  {
    name: 'toMention on a failed call fails both ways',
    run: (e) => e({ raw: null, error: 'boom' }).not.toMention('x'),
    fails: /no response to search/,
  },
  { name: 'toMention searches a plain string', run: (e) => e('hello world').toMention('world') },
  { name: 'toHitRate is inclusive', run: (e) => e(result).toHitRate(0.5) },
  {
    name: 'toHitRate fails with percentages',
    run: (e) => e({ keyword_hit_rate: 0.666 }).toHitRate(0.675),
    fails: /^expected keyword hit rate >= 67\.5%, got 66\.6%$/,
  },
  {
    name: 'not.toHitRate',
    run: (e) => e({ keyword_hit_rate: 0.8 }).not.toHitRate(0.7),
    fails: /expected keyword hit rate < 70\.0%, got 80\.0%/,
  },
  {
    name: 'toHitRate on a null rate fails',
    run: (e) => e({ keyword_hit_rate: null }).toHitRate(0.7),
    fails: /keyword_hit_rate is null/,
  },
  {
    name: 'not.toHitRate on a null rate fails too',
    run: (e) => e({ keyword_hit_rate: null }).not.toHitRate(0.7),
    fails: /keyword_hit_rate is null/,
  },
  { name: 'toHitRate refuses a threshold above 1', run: (e) => e(result).toHitRate(70), fails: /between 0 and 1/ },
]);

/** A value a matcher cannot judge fails with and without `.not`: could not judge is never judged false. */
describe('could not judge fails both ways', () => {
  const cases: [string, (a: Assertion) => unknown, unknown, RegExp][] = [
    [
      'toHaveProperty on undefined',
      (a) => a.toHaveProperty('a'),
      undefined,
      /toHaveProperty needs a value to look into \(not null or undefined\), got undefined/,
    ],
    ['toHaveProperty on null', (a) => a.toHaveProperty('a', 1), null, /got null/],
    [
      'toMatchJsonPath on text that is not JSON',
      (a) => a.toMatchJsonPath('$.a', 1),
      'not json',
      /toMatchJsonPath needs JSON.*got "not json"/,
    ],
    ['toMatchJsonPath on a number', (a) => a.toMatchJsonPath('$.a'), 5, /needs JSON/],
    ['toMatchJsonPath on a string holding a JSON scalar', (a) => a.toMatchJsonPath('$.a'), '"text"', /needs JSON/],
    ['toBeLessThan on a string', (a) => a.toBeLessThan(3), '2', /to be a number/],
    ['toHaveCalledTool on undefined', (a) => a.toHaveCalledTool('search'), undefined, /needs an agent result object/],
  ];
  for (const [name, call, received, message] of cases) {
    for (const negated of [false, true]) {
      test(`${negated ? 'not.' : ''}${name}`, () => {
        const assertion = negated ? expect(received).not : expect(received);
        assert.throws(
          () => call(assertion),
          (error: unknown) =>
            error instanceof AssertionError &&
            message.test(error.message) &&
            error.matcher.startsWith(negated ? 'not.' : 'to'),
        );
      });
    }
  }

  test('a matcher added with extend declares its subject the same way', () => {
    expect.extend({
      toBeOdd: judging(subjects.number, (n: number) => ({
        pass: n % 2 === 1,
        message: (not) => `expected ${n} ${not ? 'not ' : ''}to be odd`,
      })),
    });
    const odd = (v: unknown) => expect(v) as Assertion & { toBeOdd(): Assertion; not: { toBeOdd(): Assertion } };
    odd(3).toBeOdd();
    odd(2).not.toBeOdd();
    assert.throws(() => odd('3').not.toBeOdd(), /toBeOdd needs the received value to be a number, got "3"/);
  });
});

describe('expect', () => {
  test('.not.not is the plain form', () => {
    expect(1).not.not.toBe(1);
    assert.throws(() => expect(1).not.not.toBe(2), /expected 1 to be 2/);
  });

  test('failures carry the matcher, expected and actual', () => {
    try {
      expect({ a: 1 }).not.toEqual({ a: 1 });
      assert.fail('should throw');
    } catch (error) {
      assert.ok(error instanceof AssertionError);
      assert.equal(error.matcher, 'not.toEqual');
      assert.deepEqual(error.expected, { a: 1 });
      assert.deepEqual(error.actual, { a: 1 });
      assert.equal(error.isAssertionError, true);
    }
  });

  test('extend adds a matcher that works with .not', () => {
    expect.extend({
      toBeEven: (received) => ({
        pass: typeof received === 'number' && received % 2 === 0,
        message: (not) => `expected ${received} ${not ? 'not ' : ''}to be even`,
      }),
    });
    const even = (v: number) => expect(v) as Assertion & { toBeEven(): Assertion; not: { toBeEven(): Assertion } };
    even(2).toBeEven();
    assert.throws(() => even(3).toBeEven(), /expected 3 to be even/);
    assert.throws(() => (even(2).not as unknown as { toBeEven(): void }).toBeEven(), /expected 2 not to be even/);
    assert.throws(() => expect.extend({ not: () => ({ pass: true, message: () => '' }) }), /reserved/);
  });

  test('an invalid JSONPath is a failure that names the path', () => {
    assert.throws(() => expect({ a: 1 }).toMatchJsonPath('$[?(@.a ==', 1), /invalid JSONPath/);
  });
});
