import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitState } from '../src/index.js';

function repo(): { dir: string; git: (...args: string[]) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-git-'));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
      cwd: dir,
      encoding: 'utf8',
    }).trim();
  git('init', '-q', '-b', 'trunk');
  writeFileSync(join(dir, 'a.txt'), 'a\n');
  git('add', 'a.txt');
  git('commit', '-q', '-m', 'first');
  return { dir, git };
}

test('a run on a branch records the commit and the branch', async () => {
  const { dir, git } = repo();
  assert.deepEqual(await gitState(dir), { commit: git('rev-parse', 'HEAD'), branch: 'trunk' });
});

test('a run on a detached commit records the commit alone', async () => {
  const { dir, git } = repo();
  const commit = git('rev-parse', 'HEAD');
  git('checkout', '-q', '--detach');
  assert.deepEqual(await gitState(dir), { commit });
});

test('outside a git work tree there is no git state', async () => {
  assert.equal(await gitState(mkdtempSync(join(tmpdir(), 'agentest-nogit-'))), undefined);
});
