import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { findCycle, importGraph } from '@agentest/test-utils';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

// Modules that import each other at run time load half-initialised in one of the two orders. Type-only
// imports (the `CliIo` type the command files share) are erased and left out.
test("the CLI's run-time import graph has no cycle", () => {
  const graph = importGraph(SRC, { runtimeOnly: true });
  assert.ok(graph.get(join(SRC, 'flags.ts'))!.includes(join(SRC, 'watch/watch-flags.ts')), 'the walk sees flags.ts');
  const cycle = findCycle(graph, SRC);
  assert.equal(cycle, undefined, `import cycle: ${cycle?.join(' → ')}`);
});
