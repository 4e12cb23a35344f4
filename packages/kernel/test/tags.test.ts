import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tagsSelect } from '../src/case-tags.js';
import { AgentestError, createKernel } from '../src/index.js';
import type { TagFilter } from '../src/types/run.js';
import { collector, inlinePlugins, plan, testCase } from './helpers.js';

const cases = [
  testCase('a', { tags: ['smoke', 'billing'] }),
  testCase('b', { tags: ['slow'] }),
  testCase('c', { tags: ['smoke', 'slow'] }),
  testCase('d'),
];

/** `--tag` as the CLI parses it: a leading `!` excludes. */
function tagFilter(tags: string[]): TagFilter {
  return {
    include: tags.filter((t) => !t.startsWith('!')),
    exclude: tags.filter((t) => t.startsWith('!')).map((t) => t.slice(1)),
  };
}

async function ran(tags: string[], filter?: RegExp): Promise<string[]> {
  const c = collector();
  await createKernel({ plugins: [...inlinePlugins(cases), c.plugin] }).run(
    plan({ tags: tagFilter(tags), ...(filter ? { filter } : {}) }),
  );
  return c.events.filter((e) => e.type === 'result').map((e) => e.id as string);
}

test('wanted tags are ORed, excluded tags leave cases out, and --run narrows both', async () => {
  assert.deepEqual(await ran(['billing', 'slow']), ['a', 'b', 'c']);
  assert.deepEqual(await ran(['!slow']), ['a', 'd']);
  assert.deepEqual(await ran(['smoke', '!slow']), ['a']);
  assert.deepEqual(await ran(['smoke'], /^c$/), ['c']);
  assert.equal(tagsSelect(tagFilter([]), undefined), true);
});

test('the result of a tagged case carries its tags; an untagged one has none', async () => {
  const c = collector();
  await createKernel({ plugins: [...inlinePlugins(cases), c.plugin] }).run(plan({}));
  const results = c.events.filter((e) => e.type === 'result');
  assert.deepEqual(results[0]!.tags, ['smoke', 'billing']);
  assert.equal('tags' in results[3]!, false);
});

test('a wanted tag that no case has is NO_CASES naming it, with a did-you-mean; an unknown excluded tag is not', async () => {
  await assert.rejects(ran(['smok']), (error: unknown) => {
    assert.ok(error instanceof AgentestError && error.code === 'NO_CASES');
    assert.equal(
      error.message,
      'no case has tag "smok" (did you mean "smoke"?); tags in this suite: billing, slow, smoke',
    );
    return true;
  });
  assert.deepEqual(await ran(['!flaky']), ['a', 'b', 'c', 'd']);
});
