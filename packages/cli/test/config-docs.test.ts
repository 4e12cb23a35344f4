// docs/config.md, the reference of the config file: it names every key the config accepts, and its example runs.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as z from 'zod';
import { configShape } from '../src/config/normalise-config.js';
import { readDoc, sectionBlock } from './doc-blocks.js';
import { fixture, installAgentest } from './helpers.js';
import { agentestInProcess as agentest } from './in-process.js';

const DOC = readDoc('docs/config.md');

/** The config's keys, and its sections' keys as `section.key` (one level: `test.sequential` is one key). */
function configKeys(): string[] {
  const keys: string[] = [];
  for (const [key, value] of Object.entries(configShape().shape)) {
    const inner = value instanceof z.ZodOptional ? value.unwrap() : value;
    if (inner instanceof z.ZodObject) keys.push(...Object.keys(inner.shape).map((sub) => `${key}.${sub}`));
    else keys.push(key);
  }
  return keys;
}

test('docs/config.md names every key the config accepts, with what it does', () => {
  const keys = configKeys();
  assert.ok(keys.includes('test.failFast') && keys.includes('coverage.lines') && keys.includes('prices'), keys.join());
  const rows = DOC.split('\n').filter((line) => line.startsWith('| `'));
  for (const key of [...keys, 'extends'])
    assert.ok(
      rows.some((row) => row.slice(0, row.indexOf(' | ', 2)).includes(`\`${key}\``)),
      `docs/config.md has a row for ${key}`,
    );
});

test("docs/config.md's example config runs: its suite with its agent, stopped by failFast after the first failure", async () => {
  const dir = installAgentest(
    fixture({
      'agentest.config.ts': sectionBlock(DOC, 'The config file: every key', 'ts'),
      'tests/inputs.jsonl':
        '{"id": "T1", "input": "hi", "expected": "HI"}\n{"id": "T2", "input": "hi", "expected": "hi"}\n{"id": "T3", "input": "hi", "expected": "HI"}\n',
    }),
  );
  const run = await agentest(['test', '--no-jsonl', '-o', 'report.json'], { cwd: dir });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
  assert.deepEqual(
    report.results.map((r: { id: string; status: string }) => [r.id, r.status]),
    [
      ['T1', 'passed'],
      ['T2', 'failed'],
      ['T3', 'skipped'],
    ],
  );
  assert.match(
    report.results[2].skip_reason ?? report.results[2].error ?? '',
    /not run: --fail-fast after case T2 failed/,
  );
});
