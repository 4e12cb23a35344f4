import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Every relative `import`/`export … from` of a source file as `.ts` paths; type-only ones unless `runtimeOnly`. */
function localImports(file: string, runtimeOnly: boolean): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(import|export)\b(\s+type\b)?[^'";]*?from\s+'(\.{1,2}\/[^']+)'/gms)]
    .filter((m) => !(runtimeOnly && m[2]))
    .map((m) => resolve(dirname(file), m[3]!.replace(/\.js$/, '.ts')));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The relative imports of every `.ts` file under `dir`: file → the files it imports. */
export function importGraph(dir: string, options: { runtimeOnly?: boolean } = {}): Map<string, string[]> {
  return new Map(sourceFiles(dir).map((file) => [file, localImports(file, options.runtimeOnly ?? false)]));
}

/** The first import cycle a depth-first walk finds, as files relative to `root`, or undefined. */
export function findCycle(graph: Map<string, string[]>, root: string): string[] | undefined {
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
    if (cycle) return cycle.map((f) => relative(root, f));
  }
  return undefined;
}
