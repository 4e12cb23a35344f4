import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { findCycle, importGraph } from '@agentest/test-utils';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

test('the import graph of the plugin (the worker files above all) has no cycle, type-only imports included', () => {
  const graph = importGraph(SRC);
  assert.ok(
    [...graph.keys()].some((f) => f.endsWith('worker/sandbox.ts')),
    'the walk sees the worker files',
  );
  assert.ok(graph.get(join(SRC, 'worker/yao-runtime.ts'))!.includes(join(SRC, 'worker/sandbox.ts')));
  const cycle = findCycle(graph, SRC);
  assert.equal(cycle, undefined, `import cycle: ${cycle?.join(' → ')}`);
});

test('the cycle finder finds a cycle (so that the test above can fail)', () => {
  const [a, b, c] = ['a.ts', 'b.ts', 'c.ts'].map((f) => join(SRC, f));
  assert.deepEqual(
    findCycle(
      new Map([
        [a!, [b!]],
        [b!, [c!]],
        [c!, [a!]],
      ]),
      SRC,
    ),
    ['a.ts', 'b.ts', 'c.ts', 'a.ts'],
  );
  assert.equal(
    findCycle(
      new Map([
        [a!, [b!, c!]],
        [b!, [c!]],
      ]),
      SRC,
    ),
    undefined,
  );
});
