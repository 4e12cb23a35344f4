/**
 * The error catalogue against the code base: every code some package raises is in the catalogue
 * (and so in `docs/errors.md`), and every catalogue code is raised somewhere — a code nothing raises
 * documents an error users can never see.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ERROR_CATALOGUE } from '@agentest/kernel/errors';
import { renderErrorCatalogue } from '@agentest/kernel/errors';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') continue;
    if (statSync(path).isDirectory()) sources(path, out);
    else if (/\.[cm]?[jt]s$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Code → the files that raise it: `new AgentestError('CODE'`, and `PluginError` for PLUGIN_ERROR. */
function raisedCodes(): Map<string, string[]> {
  const raised = new Map<string, string[]>();
  const add = (code: string, file: string) => raised.set(code, [...(raised.get(code) ?? []), relative(ROOT, file)]);
  for (const pkg of readdirSync(join(ROOT, 'packages'))) {
    const src = join(ROOT, 'packages', pkg, 'src');
    if (!statSync(join(ROOT, 'packages', pkg)).isDirectory()) continue;
    let files: string[];
    try {
      files = sources(src);
    } catch {
      continue;
    }
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/new AgentestError\(\s*['"`]([A-Z][A-Z0-9_]*)['"`]/g)) add(match[1]!, file);
      for (const match of text.matchAll(/super\(\s*['"`]([A-Z][A-Z0-9_]*)['"`]/g))
        if (/extends AgentestError/.test(text)) add(match[1]!, file);
    }
  }
  return raised;
}

const raised = raisedCodes();
const catalogue = new Set(Object.keys(ERROR_CATALOGUE));

test('every error code raised in packages/*/src is in the catalogue', () => {
  const unknown = [...raised]
    .filter(([code]) => !catalogue.has(code))
    .map(([code, files]) => `${code} (${files.join(', ')})`);
  assert.deepEqual(unknown, [], 'codes raised but missing from packages/kernel/src/errors.ts');
  assert.ok(raised.size >= 15, `found only ${raised.size} codes: the scan is broken`);
});

test('every catalogue code is raised somewhere (unused codes are listed)', () => {
  const unused = [...catalogue].filter((code) => !raised.has(code));
  assert.deepEqual(unused, [], `catalogue codes nothing raises: ${unused.join(', ')}`);
});

test('docs/errors.md lists exactly the catalogue, up to date', () => {
  const docs = readFileSync(join(ROOT, 'docs/errors.md'), 'utf8');
  assert.equal(docs, renderErrorCatalogue(), 'run npm run docs:errors');
  const documented = new Set([...docs.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]!));
  assert.deepEqual([...documented].sort(), [...catalogue].sort());
});
