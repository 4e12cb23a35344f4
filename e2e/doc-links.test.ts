// Every relative link in the docs and the READMEs points to a file that exists: a reader who follows one
// from a package's README (shown on npm) or from docs/ lands on the page it names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function markdownIn(dir: string): string[] {
  return readdirSync(join(root, dir))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(root, dir, name));
}

const pages = [
  join(root, 'README.md'),
  ...markdownIn('docs'),
  ...markdownIn('bench'),
  ...readdirSync(join(root, 'packages'))
    .map((pkg) => join(root, 'packages', pkg, 'README.md'))
    .filter((path) => existsSync(path)),
];

/** The `[text](target)` links outside code: no scheme (`https:`, `mailto:`), not an anchor of the same page. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^(```+|~~~+)[^\n]*\n[\s\S]*?^\1\s*$/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!.split('#')[0]!)
    .filter((target) => target !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

test('every relative link in the docs and the package READMEs names a file that exists', () => {
  const broken = pages.flatMap((page) =>
    relativeLinks(readFileSync(page, 'utf8'))
      .filter((target) => !existsSync(join(dirname(page), decodeURI(target))))
      .map((target) => `${relative(root, page)} → ${target}`),
  );
  assert.deepEqual(broken, []);
});
