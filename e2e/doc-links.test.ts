// Every relative link in the docs and the READMEs points to a file that exists, and its `#anchor` (same page
// ones too) to a heading of that page as GitHub ids it: a reader who follows one from a package's README
// (shown on npm) or from docs/ lands on the page, and the place, it names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { headingIds, slug } from './helpers/heading-ids.js';

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

/** The `[text](target)` links outside code whose target has no scheme (`https:`, `mailto:`), anchors kept. */
function localLinks(markdown: string): string[] {
  const prose = markdown.replace(/^(```+|~~~+)[^\n]*\n[\s\S]*?^\1\s*$/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** The file part of a link, without its anchor; empty for an anchor of the same page. */
const fileOf = (target: string) => target.split('#')[0]!;

test('every relative link in the docs and the package READMEs names a file that exists', () => {
  const broken = pages.flatMap((page) =>
    localLinks(readFileSync(page, 'utf8'))
      .map(fileOf)
      .filter((target) => target !== '' && !existsSync(join(dirname(page), decodeURI(target))))
      .map((target) => `${relative(root, page)} → ${target}`),
  );
  assert.deepEqual(broken, []);
});

test('every #anchor of a link to a Markdown page names one of its headings, as GitHub ids them', () => {
  const ids = new Map<string, Set<string>>();
  const idsOf = (page: string) => {
    if (!ids.has(page)) ids.set(page, new Set(headingIds(readFileSync(page, 'utf8'))));
    return ids.get(page)!;
  };
  const broken = pages.flatMap((page) =>
    localLinks(readFileSync(page, 'utf8'))
      .filter((target) => target.includes('#') && /^$|\.md$/i.test(fileOf(target)))
      .filter((target) => {
        const file = fileOf(target);
        const linked = file === '' ? page : join(dirname(page), decodeURI(file));
        return existsSync(linked) && !idsOf(linked).has(decodeURIComponent(target.slice(target.indexOf('#') + 1)));
      })
      .map((target) => `${relative(root, page)} → ${target}`),
  );
  assert.deepEqual(broken, []);
});

test("heading ids follow GitHub's algorithm: lowercase, punctuation out, spaces to hyphens, repeats numbered", () => {
  assert.equal(slug('`agentest test`: the command line'), 'agentest-test-the-command-line');
  assert.equal(
    slug('Comparing as part of a run: `agentest test --baseline <report>`'),
    'comparing-as-part-of-a-run-agentest-test---baseline-report',
  );
  assert.equal(slug('Integers beyond 2^53'), 'integers-beyond-253');
  assert.equal(slug('How to add …'), 'how-to-add-');
  assert.equal(slug('Ünïcode & snake_case'), 'ünïcode--snake_case');
  const page = [
    '# Options',
    '## Options',
    '```sh',
    '# not a heading',
    '```',
    '## Options',
    '## Options-1',
    '### The [report](report.md) **model** (`@agentest/report`) ##',
    '## `mock` _fast_ <sup>new</sup>',
  ].join('\n');
  assert.deepEqual(headingIds(page), [
    'options',
    'options-1',
    'options-2',
    'options-1-1',
    'the-report-model-agentestreport',
    'mock-fast-new',
  ]);
});
