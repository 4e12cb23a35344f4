import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AgentestError } from '@agentest/kernel';
import { parseTagFilter } from '../src/tag-filter.js';

test("--tag values become the plan's filter: a leading ! excludes, spaces around the name are dropped", () => {
  assert.deepEqual(parseTagFilter(['smoke', ' billing ', '!slow', '! flaky']), {
    include: ['smoke', 'billing'],
    exclude: ['slow', 'flaky'],
  });
  assert.deepEqual(parseTagFilter([]), { include: [], exclude: [] });
});

test('a --tag without a name is FLAG_INVALID naming the flag and an example', () => {
  assert.throws(
    () => parseTagFilter(['!  ']),
    (error: unknown) =>
      error instanceof AgentestError &&
      error.code === 'FLAG_INVALID' &&
      error.message ===
        `--tag needs a tag name, got "!  " (e.g. --tag smoke, or --tag '!slow' to leave slow cases out)`,
  );
});
