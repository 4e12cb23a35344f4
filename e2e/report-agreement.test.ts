/**
 * The rules the reports share say the same thing in every output: one metric through every built-in
 * reporter reads `1234ms` with the threshold `≤1000ms` (the Markdown and HTML reports used to say
 * `1.2s`), a kit threshold on `avg_latency_ms` is judged on the measured latency everywhere, and
 * the console and the kit print API colour the same terminal the same way.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { useColor } from '@agentest/plugin-kit';
import consoleReporter from '@agentest/reporter-console';
import { everyReporter } from './helpers/every-reporter.js';
import { workspace } from './helpers/workspace.js';
import { runScenario } from '../packages/report/test/scenario.js';

test('a latency metric and its threshold read the same in every report', async () => {
  const dir = workspace('agreement');
  const every = everyReporter(dir);
  await runScenario(
    [
      { id: 'slow', behaviour: () => ({ output: 'ok', metrics: { latency_ms: 1234.4, keyword_hit_rate: 0.75 } }) },
      { id: 'slower', behaviour: () => ({ output: 'ok', metrics: { latency_ms: 1234.4, keyword_hit_rate: 0.75 } }) },
    ],
    every.plugins,
    { thresholds: { latency_ms: 1000, avg_latency_ms: 1500, keyword_hit_rate: 0.7 } },
  );
  const out = every.outputs();
  const text = (name: string) => out[name]!.replace(/&lt;/g, '<').replace(/&gt;/g, '>');
  for (const name of ['console', 'report.md', 'report.html', 'junit.xml'])
    assert.match(text(name), /1234ms/, `${name} shows the latency in milliseconds`);
  for (const name of ['console', 'report.md', 'report.html', 'junit.xml', 'summary.txt', 'report.json'])
    assert.doesNotMatch(text(name), /1\.2s/, `${name} does not show the latency in seconds`);
  assert.match(text('console'), /≤1000ms/);
  assert.match(text('report.md'), /\| latency_ms \| 1234ms \| ≤ 1000ms \|/);
  assert.match(text('report.md'), /\| avg_latency_ms \| 1234ms \| ≤ 1500ms \|/);
  assert.match(text('junit.xml'), /name="metric\.latency_ms" value="1234ms"/);
  // The verdict (one issue: the latency) says the same in the console and the reports.
  assert.match(text('console'), /Latency 1234ms > threshold 1000ms/);
  assert.match(text('report.md'), /- Latency 1234ms > threshold 1000ms/);
  assert.match(text('summary.txt'), /- Latency 1234ms > threshold 1000ms/);
});

test('FORCE_COLOR=false on a pipe: neither the console nor the kit print API colours', async (t) => {
  const saved = { NO_COLOR: process.env.NO_COLOR, FORCE_COLOR: process.env.FORCE_COLOR };
  t.after(() => {
    for (const [key, value] of Object.entries(saved))
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
  });
  delete process.env.NO_COLOR;
  for (const [force, coloured] of [
    ['false', false],
    ['0', false],
    ['1', true],
  ] as const) {
    process.env.FORCE_COLOR = force;
    const stream = Object.assign(new PassThrough(), { isTTY: false });
    let printed = '';
    stream.on('data', (d) => (printed += d));
    await runScenario([{ id: 'T1' }], [consoleReporter({ stream, progress: false })]);
    assert.equal(/\x1b\[/.test(printed), coloured, `console with FORCE_COLOR=${force}`);
    assert.equal(useColor({ isTTY: false }), coloured, `kit print API with FORCE_COLOR=${force}`);
  }
});
