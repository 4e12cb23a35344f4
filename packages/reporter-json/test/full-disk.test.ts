import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jsonReporter from '../src/index.js';
import { runScenario } from '../../report/test/scenario.js';

/** A 64 KiB tmpfs, or the reason one cannot be mounted here (not root, no CAP_SYS_ADMIN, a container). */
function smallDisk(): { dir: string } | { skip: string } {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-full-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    return {
      skip: `cannot mount a small tmpfs to fill up (${(error as Error).message.split('\n')[0]}); run as root to test a full disk`,
    };
  }
  after(() => {
    execFileSync('umount', [dir]);
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir };
}

const disk = smallDisk();

test(
  'a full disk leaves the previous report whole; the run ends with exit 3 naming ENOSPC',
  { skip: 'skip' in disk ? disk.skip : false },
  async () => {
    const { dir } = disk as { dir: string };
    const first = await runScenario([{ id: 'small' }], [jsonReporter({ output: 'report.json', cwd: dir })]);
    assert.deepEqual(first.errors, []);
    const previous = readFileSync(join(dir, 'report.json'), 'utf8');
    JSON.parse(previous);
    // Leave a few KiB free, then write a report far larger than that.
    writeFileSync(join(dir, 'ballast'), Buffer.alloc(48 * 1024));
    const big = 'x'.repeat(40_000);
    const second = await runScenario(
      [{ id: 'big', behaviour: () => ({ output: big }) }],
      [jsonReporter({ output: 'report.json', cwd: dir })],
    );
    assert.equal(second.errors.length, 1);
    assert.match(
      second.errors.map((e) => e.message).join('\n'),
      /reporter "agentest:json" failed in onSummary: cannot write .*report\.json: ENOSPC/,
    );
    assert.equal(readFileSync(join(dir, 'report.json'), 'utf8'), previous, 'the previous report is unchanged');
    assert.deepEqual(readdirSync(dir).sort(), ['ballast', 'report.json'], 'no temporary file is left behind');
  },
);
