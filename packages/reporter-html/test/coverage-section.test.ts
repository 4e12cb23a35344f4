import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import type { AgentestPlugin, CoverageCounts, CoverageSummary } from '@agentest/kernel';
import htmlReporter from '../src/index.js';
import { runScenario, tempDir } from '../../report/test/scenario.js';

const CHROMIUM = process.env.AGENTEST_CHROMIUM ?? '/usr/bin/chromium';
/** Browser start-up and page waits only catch hangs: Playwright's 30 s default is a budget a busy machine can miss. */
const BROWSER_HANG_MS = 120_000;
let browser: Browser;
before(async () => {
  assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM}: apt-get install chromium`);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--headless'],
    timeout: BROWSER_HANG_MS,
  });
});
after(() => browser?.close());

const counts = (lines: [number, number], functions: [number, number]): CoverageCounts => {
  const count = ([covered, total]: [number, number]) => ({
    covered,
    total,
    pct: Math.round((covered / total) * 10_000) / 100,
  });
  return { lines: count(lines), functions: count(functions), branches: count([2, 3]), statements: count(lines) };
};

const COVERAGE: CoverageSummary = {
  ...counts([14, 21], [3, 4]),
  files: [
    { file: 'assistants/calc/src/calc.ts', ...counts([10, 17], [2, 3]), uncovered_lines: '6-10, 14-15' },
    { file: 'assistants/calc/src/<b>prepare</b>.ts', ...counts([4, 4], [1, 1]), uncovered_lines: '' },
  ],
  reports: ['coverage/lcov.info'],
};

/** Puts a coverage block on the summary before the reporter hears it, as the coverage plugin does. */
const withCoverage: AgentestPlugin = {
  name: 'test:coverage',
  apply({ hooks }) {
    hooks.report.tap({ name: 'test:coverage', stage: -100 }, (event) => {
      if (event.type === 'summary') event.coverage = COVERAGE;
    });
  },
};

test('the Coverage section: totals first, a row per file with the uncovered lines, files below the minimum marked', async () => {
  const dir = await tempDir();
  await runScenario([{ id: 'one' }], [withCoverage, htmlReporter({ output: 'report.html', cwd: dir })], {
    thresholds: { coverage_lines: 0.8 },
  });
  const page = await browser.newPage();
  page.setDefaultTimeout(BROWSER_HANG_MS);
  after(() => page.close());
  await page.goto(pathToFileURL(join(dir, 'report.html')).href);
  const headers = await page.$$eval('#coverage thead th', (cells) => cells.map((c) => c.textContent));
  assert.deepEqual(headers, ['File', 'Lines', 'Functions', 'Branches', 'Statements', 'Uncovered lines']);
  const rows = await page.$$eval('#coverage tbody tr', (trs) =>
    trs.map((tr) => ({ miss: tr.classList.contains('miss'), cells: [...tr.cells].map((td) => td.textContent) })),
  );
  assert.deepEqual(rows, [
    { miss: true, cells: ['All files', '66.7% (14/21)', '75.0% (3/4)', '66.7% (2/3)', '66.7% (14/21)', ''] },
    {
      miss: true,
      cells: [
        'assistants/calc/src/calc.ts',
        '58.8% (10/17)',
        '66.7% (2/3)',
        '66.7% (2/3)',
        '58.8% (10/17)',
        '6-10, 14-15',
      ],
    },
    {
      miss: false,
      cells: [
        'assistants/calc/src/<b>prepare</b>.ts',
        '100.0% (4/4)',
        '100.0% (1/1)',
        '66.7% (2/3)',
        '100.0% (4/4)',
        '',
      ],
    },
  ]);
  assert.match((await page.textContent('#coverage p.muted'))!, /reports: coverage\/lcov\.info/);
  assert.equal(await page.$('#coverage b'), null, 'a file name is text, not markup');
});

test('no Coverage section when the run measured none', async () => {
  const dir = await tempDir();
  await runScenario([{ id: 'one' }], [htmlReporter({ output: 'report.html', cwd: dir })]);
  const page = await browser.newPage();
  page.setDefaultTimeout(BROWSER_HANG_MS);
  after(() => page.close());
  await page.goto(pathToFileURL(join(dir, 'report.html')).href);
  assert.equal(await page.$('#coverage'), null);
});
