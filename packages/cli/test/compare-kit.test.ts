import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentestInProcess } from './in-process.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

test('an agentest-kit suite (examples/support): its .jsonl stream and its .json report compare case by case', async () => {
  const out = mkdtempSync(join(tmpdir(), 'agentest-compare-kit-'));
  for (const file of ['kit.jsonl', 'kit.json']) {
    const run = await agentestInProcess(['test', '-i', 'examples/support', '-o', join(out, file)], { cwd: ROOT });
    assert.ok(run.code === 0 || run.code === 1, run.stderr);
  }
  const compare = await agentestInProcess(
    ['compare', join(out, 'kit.jsonl'), join(out, 'kit.json'), '-o', join(out, 'c.json')],
    { cwd: ROOT },
  );
  assert.equal(compare.code, 0, compare.stderr);
  assert.match(compare.stdout, /base {2}examples\/support · .*kit\.jsonl · agent support · 15 cases × 1 run/);
  assert.match(
    compare.stdout,
    /C006 +• still failing +failed +failed +structure check failed: backend answered code 503/,
  );
  assert.match(compare.stdout, /Verdict: NO SIGNIFICANT CHANGE — 0 regressed, 0 fixed of 11 cases/);
  const { readFileSync } = await import('node:fs');
  const json = JSON.parse(readFileSync(join(out, 'c.json'), 'utf8'));
  assert.equal(json.cases.length, 15);
  assert.ok(
    json.cases.some((c: { id: string }) => c.id.startsWith('examples/support/tests/advanced.test.ts')),
    'test() functions are cases too',
  );
});
