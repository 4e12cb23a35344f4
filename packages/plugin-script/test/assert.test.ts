import assert from 'node:assert/strict';
import vm from 'node:vm';
import { describe, it } from 'node:test';
import { ASSERT_METHODS, createAssert, type AssertionFailure } from '../src/worker/assert.js';
import { deepEqual } from '../src/worker/equal.js';

function check(method: string, args: unknown[]): AssertionFailure | undefined {
  let failure: AssertionFailure | undefined;
  const t = createAssert((f) => (failure = f));
  const returned = t[method](...args);
  assert.equal(returned, failure === undefined, `${method} returns whether it passed`);
  return failure;
}

const boom = () => {
  throw new Error('x');
};

/** [method, passing args[], failing args[], expected failure fields of the first failing case] */
const TABLE: [string, unknown[][], unknown[][], Partial<AssertionFailure>][] = [
  [
    'True',
    [[true], [1], ['x']],
    [[false], [0], [''], [null]],
    { expected: true, actual: false, message: 'expected true, got false' },
  ],
  ['False', [[false], [0], [null]], [[true], ['x']], { expected: false, actual: true }],
  [
    'Equal',
    [
      [
        { a: 1, b: [1, 2] },
        { b: [1, 2], a: 1 },
      ],
      [1, 1.0],
      [null, undefined],
      [{ a: undefined }, {}],
      [NaN, NaN],
      [new Date(5), new Date(5)],
    ],
    [
      [1, 2],
      ['1', 1],
      [
        [1, 2],
        [2, 1],
      ],
      [{ a: 1 }, { a: 1, b: 2 }],
      [undefined, 0],
    ],
    { expected: 2, actual: 1, message: 'expected 2, got 1' },
  ],
  [
    'NotEqual',
    [
      [1, 2],
      ['1', 1],
    ],
    [[{ a: 1 }, { a: 1 }]],
    { actual: { a: 1 } },
  ],
  ['Nil', [[null], [undefined]], [[0], ['']], { expected: null, actual: 0 }],
  ['NotNil', [[0], [''], [false]], [[null], [undefined]], { expected: 'not nil', actual: null }],
  [
    'Contains',
    [
      ['hello world', 'world'],
      [['x', 'y'], 'x'],
      [[{ id: 1 }], { id: 1 }],
      [{ key: 1 }, 'key'],
      [12345, 234],
    ],
    [
      ['hello', 'bye'],
      [['xy'], 'x'],
      [{ key: 1 }, 'other'],
    ],
    { expected: 'bye', actual: 'hello' },
  ],
  [
    'NotContains',
    [
      ['hello', 'bye'],
      [['a'], 'b'],
    ],
    [['hello', 'ell']],
    { actual: 'hello' },
  ],
  [
    'Len',
    [
      ['你好', 2],
      [[1, 2, 3], 3],
      [{ a: 1, b: 2 }, 2],
      [null, 0],
      [new Map([[1, 2]]), 1],
      ['abc', '3'],
    ],
    [
      ['abc', 2],
      [42, 0],
    ],
    { expected: 2, actual: 3, message: 'expected length 2, got 3' },
  ],
  [
    'Greater',
    [
      [2, 1],
      ['10', 9],
    ],
    [
      [1, 1],
      ['x', 1],
    ],
    { expected: '> 1', actual: 1 },
  ],
  [
    'GreaterOrEqual',
    [
      [1, 1],
      [2, 1],
    ],
    [[0, 1]],
    { expected: '>= 1', actual: 0 },
  ],
  ['Less', [[1, 2]], [[2, 2]], { expected: '< 2', actual: 2 }],
  [
    'LessOrEqual',
    [
      [2, 2],
      [1, 2],
    ],
    [[3, 2]],
    { expected: '<= 2', actual: 3 },
  ],
  [
    'Error',
    [[new Error('x')], ['failure'], [{ code: 1 }]],
    [[null], [undefined], [false], ['']],
    { expected: 'an error', actual: null },
  ],
  ['NoError', [[null], [undefined], [false]], [[new Error('bad')]], { expected: null }],
  ['Panic', [[boom]], [[() => 1], ['not a function']], { expected: 'a throw' }],
  ['NoPanic', [[() => 1]], [[boom]], { expected: 'no throw' }],
  [
    'Match',
    [
      ['abc-123', '\\d{3}'],
      ['ABC', '(?i)abc'],
      ['line', /li/],
    ],
    [
      ['abc', '^\\d+$'],
      ['abc', '('],
    ],
    { expected: '^\\d+$', actual: 'abc' },
  ],
  ['NotMatch', [['abc', '^\\d+$']], [['123', '^\\d+$']], { actual: '123' }],
  [
    'Type',
    [
      [null, 'null'],
      [undefined, 'undefined'],
      ['s', 'string'],
      [1, 'number'],
      [true, 'boolean'],
      [[], 'array'],
      [() => 1, 'function'],
      [{}, 'object'],
      [1n, 'unknown'],
    ],
    [
      [[], 'object'],
      [null, 'object'],
    ],
    { expected: 'object', actual: 'array' },
  ],
  [
    'JSONPath',
    [
      [{ a: { b: [10, { c: 'x' }] } }, '$.a.b[1].c', 'x'],
      [{ a: { b: 2 } }, 'a.b', 2],
      [{ 'k.e': 1 }, "$['k.e']", 1],
      [{ a: [1, 2] }, '$.a[-1]', 2],
    ],
    [
      [{ a: 1 }, '$.a', 2],
      [{ a: 1 }, '$.missing', 1],
    ],
    { expected: 2, actual: 1, message: 'at $.a: expected 2, got 1' },
  ],
];

describe('t.assert', () => {
  it('has exactly the 21 methods of the seed table', () => {
    assert.equal(Object.keys(ASSERT_METHODS).length, 21);
    assert.deepEqual(Object.keys(ASSERT_METHODS).sort(), TABLE.map(([m]) => m).sort());
  });

  for (const [method, passing, failing, firstFailure] of TABLE) {
    it(`${method}: passes and fails as documented`, () => {
      for (const args of passing)
        assert.equal(check(method, args), undefined, `${method}(${args.map(String).join(', ')}) should pass`);
      failing.forEach((args, i) => {
        const failure = check(method, args);
        assert.ok(failure, `${method}(${args.map(String).join(', ')}) should fail`);
        assert.equal(failure.type, method);
        if (i === 0)
          for (const [key, value] of Object.entries(firstFailure))
            assert.deepEqual(failure[key as keyof AssertionFailure], value, `${method} ${key}`);
      });
    });
  }

  it('replaces the default text with a string message', () => {
    assert.equal(check('Equal', [1, 2, 'Result ID should match'])?.message, 'Result ID should match');
    assert.equal(check('JSONPath', [{ a: 1 }, '$.a', 2, 'custom'])?.message, 'custom');
    assert.equal(check('True', [false, 42])?.message, 'expected true, got false');
  });

  it('fails with a clear message when arguments are missing', () => {
    assert.equal(check('Equal', [1])?.message, 'Equal requires actual and expected arguments');
    assert.equal(check('JSONPath', [{}, '$.a'])?.message, 'JSONPath requires an object, a path and the expected value');
  });

  it('reports a bad regex instead of throwing', () => {
    assert.match(check('Match', ['x', '('])!.message, /^invalid regex pattern: /);
  });

  it('compares values from another realm (the sandbox) structurally', () => {
    const fromSandbox = vm.runInNewContext('({ list: [1, { a: new Date(3) }], m: new Map([["k", 1]]) })');
    assert.ok(deepEqual(fromSandbox, { list: [1, { a: new Date(3) }], m: new Map([['k', 1]]) }));
    assert.equal(check('Type', [vm.runInNewContext('[]'), 'array']), undefined);
  });
});
