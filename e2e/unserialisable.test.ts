/**
 * A value no reporter can write as JSON (nested 100,000 levels, a cycle, a BigInt) reaches every
 * built-in reporter: each still writes its output with every case and the summary, and the value is
 * replaced by a marker ("[unserialisable: …]").
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { everyReporter } from './helpers/every-reporter.js';
import { workspace } from './helpers/workspace.js';
import { runScenario } from '../packages/report/test/scenario.js';

function nested(levels: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i++) value = { next: value };
  return value;
}

test('every reporter survives unserialisable values and marks them', async () => {
  const dir = workspace('unserialisable');
  const reporters = everyReporter(dir);
  const cyclic: Record<string, unknown> = { name: 'loop' };
  cyclic.self = cyclic;
  const outcome = await runScenario(
    [
      {
        id: 'deep',
        metadata: { tree: nested(100_000) as Record<string, unknown> },
        behaviour: () => ({ output: nested(100_000) }),
      },
      { id: 'cycle', behaviour: () => ({ status: 'failed', error: 'looped', output: cyclic }) },
      {
        id: 'big',
        expected: { n: 12345678901234567890n },
        behaviour: () => ({ output: { n: 12345678901234567891n } }),
      },
      { id: 'plain' },
    ],
    reporters.plugins,
  );
  assert.deepEqual(
    outcome.errors.map((e) => e.message),
    [],
    'no reporter failed',
  );
  const outputs = reporters.outputs();
  for (const [name, text] of Object.entries(outputs)) {
    if (name === 'github') continue;
    for (const id of ['deep', 'cycle', 'big', 'plain']) {
      if ((name === 'step-summary.md' || name === 'summary.txt') && id !== 'cycle') continue; // these list failures only
      assert.ok(text.includes(id), `${name} names case ${id}`);
    }
  }
  for (const name of ['run.jsonl', 'report.json']) {
    const text = outputs[name]!;
    assert.match(text, /\[unserialisable: nested deeper than 1000 levels\]/, `${name} marks the deep value`);
    assert.match(text, /\[unserialisable: circular reference\]/, `${name} marks the cycle`);
    assert.match(text, /\[unserialisable: BigInt 12345678901234567890\]/, `${name} marks the BigInt`);
  }
  for (const line of outputs['run.jsonl']!.trim().split('\n')) JSON.parse(line);
  assert.equal(JSON.parse(outputs['report.json']!).summary.total, 4);
  assert.match(outputs['report.md']!, /\[unserialisable: circular reference\]/);
  assert.match(outputs['console']!, /\[unserialisable: circular reference\]/);
});
