import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** Every relative `import`/`export … from` of a source file, type-only ones included, as `.ts` paths. */
function localImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^'";]*?from\s+'(\.{1,2}\/[^']+)'/gms)].map(
    (m) => m[1]!,
  );
  return specifiers.map((specifier) => resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The first import cycle found by a depth-first walk, as a list of files relative to src/, or undefined. */
function findCycle(graph: Map<string, string[]>): string[] | undefined {
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string): string[] | undefined => {
    const open = path.indexOf(file);
    if (open >= 0) return [...path.slice(open), file];
    if (done.has(file)) return undefined;
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    done.add(file);
    return undefined;
  };
  for (const file of graph.keys()) {
    const cycle = visit(file);
    if (cycle) return cycle.map((f) => relative(SRC, f));
  }
  return undefined;
}

test('the import graph of the plugin (the worker files above all) has no cycle, type-only imports included', () => {
  const files = sourceFiles(SRC);
  assert.ok(
    files.some((f) => f.endsWith('worker/sandbox.ts')),
    'the walk sees the worker files',
  );
  const graph = new Map(files.map((file) => [file, localImports(file)]));
  assert.ok(graph.get(join(SRC, 'worker/yao-runtime.ts'))!.includes(join(SRC, 'worker/sandbox.ts')));
  const cycle = findCycle(graph);
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
    ),
    ['a.ts', 'b.ts', 'c.ts', 'a.ts'],
  );
  assert.equal(
    findCycle(
      new Map([
        [a!, [b!, c!]],
        [b!, [c!]],
      ]),
    ),
    undefined,
  );
});
