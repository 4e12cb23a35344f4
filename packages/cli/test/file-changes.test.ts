import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { FileChanges } from '../src/watch/file-changes.js';
import { fixture } from './helpers.js';

/** Only a hang catcher: each change is reported within a second, even on a busy machine. */
const HANG_MS = 60_000;

/** The batches of changed files, relative to `dir`, and a way to wait for the next one. */
function batches(dir: string) {
  const queue: string[][] = [];
  let wake: (() => void) | undefined;
  const onChange = (files: ReadonlySet<string>) => {
    queue.push([...files].map((file) => file.slice(dir.length + 1)).sort());
    wake?.();
  };
  const next = async (): Promise<string[]> => {
    while (!queue.length) await new Promise<void>((resolve) => (wake = resolve));
    return queue.shift()!;
  };
  return { onChange, next };
}

test(
  'a folder watch sees saves by rename, new folders, deletions, and no temporary or ignored file',
  { timeout: HANG_MS },
  async (t) => {
    const dir = fixture({ 'suites/a.jsonl': '{}\n', 'node_modules/x/index.js': '' });
    const changes = batches(dir);
    const files = new FileChanges([dir], changes.onChange);
    t.after(() => files.close());

    for (const text of ['1', '2', '3']) {
      writeFileSync(join(dir, 'node_modules/x/index.js'), text);
      writeFileSync(join(dir, 'suites/a.jsonl.tmp'), text);
      renameSync(join(dir, 'suites/a.jsonl.tmp'), join(dir, 'suites/a.jsonl'));
      assert.deepEqual(await changes.next(), ['suites/a.jsonl'], `save ${text}`);
    }

    mkdirSync(join(dir, 'prompts'));
    assert.deepEqual(await changes.next(), ['prompts']);
    writeFileSync(join(dir, 'prompts/system.md'), 'be brief');
    assert.deepEqual(await changes.next(), ['prompts/system.md']);

    rmSync(join(dir, 'suites/a.jsonl'));
    assert.deepEqual(await changes.next(), ['suites/a.jsonl']);
  },
);

test('a file outside every root is watched through its folder, and only that file', { timeout: HANG_MS }, async (t) => {
  const dir = fixture({ 'app/inputs.jsonl': '{}\n', 'shared/base.config.mjs': '', 'shared/other.mjs': '' });
  const changes = batches(dir);
  const files = new FileChanges([join(dir, 'app')], changes.onChange, [join(dir, 'shared/base.config.mjs')]);
  t.after(() => files.close());
  for (const text of ['1', '2']) {
    writeFileSync(join(dir, 'shared/other.mjs'), text);
    writeFileSync(join(dir, 'shared/base.config.mjs.tmp'), text);
    renameSync(join(dir, 'shared/base.config.mjs.tmp'), join(dir, 'shared/base.config.mjs'));
    assert.deepEqual(await changes.next(), ['shared/base.config.mjs'], `save ${text}`);
  }
});
