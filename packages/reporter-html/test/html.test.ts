import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import htmlReporter from '../src/index.js';
import { mixedCases, runScenario, tempDir } from '../../report/test/scenario.js';

async function html(cases: Parameters<typeof runScenario>[0], options: Parameters<typeof runScenario>[2] = {}) {
  const dir = await tempDir();
  await runScenario(cases, [htmlReporter({ output: 'out/report.html', cwd: dir })], options);
  return readFile(join(dir, 'out/report.html'), 'utf8');
}

test('one self-contained file: inline CSS and JS, a CSP that allows only its own script, no external URL', async () => {
  const page = await html(mixedCases());
  assert.match(page, /^<!DOCTYPE html>/);
  assert.match(page, /<title>Agent Test Report - keyword<\/title>/);
  assert.doesNotMatch(page, /<(?:script|link|img)[^>]+(?:src|href)=/i, 'no external resource');
  assert.doesNotMatch(page, /https?:\/\/(?!www\.w3\.org\/2000\/svg)/, 'no URL but the SVG namespace');
  const script = page.match(/<script>([\s\S]*?)<\/script>/)![1]!;
  const hash = createHash('sha256').update(script).digest('base64');
  assert.match(page, new RegExp(`script-src 'sha256-${hash.replace(/[+/]/g, '\\$&')}'`));
  assert.match(page, /default-src 'none'/);
  assert.match(page, /<div class="card-value">6<\/div><div class="card-label">Total Tests<\/div>/);
  assert.match(page, /<option value="failed">failed \(1\)<\/option>/);
});

test('the data island cannot be closed by agent output', async () => {
  const evil = '</script><script>alert(1)</script><!--';
  const page = await html([{ id: 'x', behaviour: () => ({ output: evil, status: 'failed', error: evil }) }]);
  const island = page.match(/<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/)![1]!;
  assert.doesNotMatch(island, /</);
  assert.equal(JSON.parse(island).rows[0].output, evil);
  assert.equal(page.match(/<\/script>/g)!.length, 2, 'only the two script elements of the page close');
});

test("a case's tags reach its row, and the case detail shows them", async () => {
  const page = await html([{ id: 'tagged', tags: ['smoke', 'billing'] }, { id: 'plain' }]);
  const island = page.match(/<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/)![1]!;
  const rows = JSON.parse(island).rows as { id: string; tags?: string[] }[];
  assert.deepEqual(rows.find((r) => r.id === 'tagged')!.tags, ['smoke', 'billing']);
  assert.equal(rows.find((r) => r.id === 'plain')!.tags, undefined);
  assert.match(page, /'Tags: ' \+ row\.tags\.join\(', '\)/, 'the detail view prints them');
});

test('runs > 1: stability charts as inline SVG, least stable case first; metrics and verdict', async () => {
  const cases = [
    { id: 'solid', behaviour: () => ({ output: 'ok', metrics: { keyword_hit_rate: 0.9 } }) },
    {
      id: 'flaky<b>',
      behaviour: (run: number) =>
        run === 1 ? { output: 'ok', duration_ms: 900 } : { status: 'failed' as const, error: 'no', duration_ms: 50 },
    },
  ];
  const page = await html(cases, { runs: 3, thresholds: { pass_rate: 0.9 } });
  const svgs = page.match(/<svg class="chart"[\s\S]*?<\/svg>/g)!;
  assert.equal(svgs.length, 2);
  assert.ok(svgs[0]!.indexOf('flaky&lt;b&gt;') < svgs[0]!.indexOf('solid'), 'least stable first, id escaped');
  assert.match(svgs[0]!, /<title>flaky&lt;b&gt;: 33.3% \(highly_unstable\)<\/title>/);
  assert.match(svgs[1]!, /min 50ms, avg 333ms, max 900ms/);
  assert.match(page, /VERDICT: DO NOT SHIP/);
  assert.match(page, /<tr class="miss"><td>pass_rate<\/td><td>50.0%<\/td><td>≥ 90.0%<\/td><\/tr>/);
});
