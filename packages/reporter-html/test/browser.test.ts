import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import htmlReporter from '../src/index.js';
import { runScenario, tempDir, type ScenarioCase, type ScenarioOptions } from '../../report/test/scenario.js';

const CHROMIUM = process.env.AGENTEST_CHROMIUM ?? '/usr/bin/chromium';
/**
 * Browser start-up and page waits only catch hangs: Playwright's 30 s default is a budget a busy machine can miss, for
 * Chromium's start as for the 10,000-row report.
 */
const PAGE_HANG_MS = 120_000;
let browser: Browser;

before(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: the HTML report tests drive a real browser. Run \`apt-get install chromium\` (or set AGENTEST_CHROMIUM).`,
    );
  }
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--headless'],
    timeout: PAGE_HANG_MS,
  });
});
after(() => browser?.close());

interface Opened {
  page: Page;
  url: string;
  dialogs: string[];
  requests: string[];
  errors: string[];
}

async function open(cases: ScenarioCase[], options: ScenarioOptions = {}): Promise<Opened> {
  const dir = await tempDir();
  await runScenario(cases, [htmlReporter({ output: 'report.html', cwd: dir })], options);
  const url = pathToFileURL(join(dir, 'report.html')).href;
  const context = await browser.newContext({ acceptDownloads: true });
  context.setDefaultTimeout(PAGE_HANG_MS);
  after(() => context.close());
  const page = await context.newPage();
  const opened: Opened = { page, url, dialogs: [], requests: [], errors: [] };
  page.on('dialog', (dialog) => {
    opened.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('request', (request) => opened.requests.push(request.url()));
  page.on('pageerror', (error) => opened.errors.push(error.message));
  await page.goto(url);
  await page.waitForSelector('#page-info:not(:empty)');
  return opened;
}

const ids = (page: Page) => page.$$eval('tr.case td.id', (cells) => cells.map((c) => c.textContent));

/** A fast pass, a failed assertion with logs, a slow pass and an error. */
const FOUR_CASES: ScenarioCase[] = [
  { id: 'fast', behaviour: () => ({ output: 'quick answer', duration_ms: 5 }) },
  {
    id: 'wrong',
    input: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Which cloud?' },
    ],
    expected: undefined,
    assert: [{ type: 'contains', value: 'cloud' }],
    behaviour: () => ({ output: 'sunny weather', duration_ms: 300, logs: ['called weather tool'] }),
  },
  { id: 'slow', behaviour: () => ({ output: 'took a while', duration_ms: 900 }) },
  { id: 'crash', behaviour: () => ({ status: 'error' as const, error: 'agent exploded', duration_ms: 50 }) },
];

test('filter by status and text, sort by duration, expand a row, export the visible rows', async () => {
  const { page, errors } = await open(FOUR_CASES);
  assert.deepEqual(await ids(page), ['fast', 'wrong', 'slow', 'crash']);
  assert.equal(await page.textContent('#page-info'), 'Showing 1–4 of 4');

  await page.selectOption('#status-filter', 'failed');
  assert.deepEqual(await ids(page), ['wrong']);
  await page.selectOption('#status-filter', '');
  await page.fill('#search', 'EXPLODED');
  assert.deepEqual(await ids(page), ['crash']);
  await page.fill('#search', 'while');
  assert.deepEqual(await ids(page), ['slow'], 'search covers the output');
  await page.fill('#search', '');

  await page.click('#sort-duration');
  assert.deepEqual(await ids(page), ['slow', 'wrong', 'crash', 'fast']);
  await page.click('#sort-duration');
  assert.deepEqual(await ids(page), ['fast', 'crash', 'wrong', 'slow']);
  await page.click('#sort-duration');
  assert.deepEqual(await ids(page), ['fast', 'wrong', 'slow', 'crash']);

  await page.click('tr.case:has-text("wrong")');
  const details = await page.$$eval('tr.details pre', (pres) => pres.map((p) => p.textContent));
  assert.deepEqual(details, [
    "output does not contain 'cloud'",
    'system: Be brief.\nuser: Which cloud?',
    'sunny weather',
    'cloud',
    'sunny weather',
    '- cloud+ sunny weather',
    'called weather tool',
  ]);
  assert.match(
    (await page.textContent('tr.details .assertion.fail'))!,
    /✗ contains: output does not contain 'cloud'expectedcloudactualsunny weather/,
  );
  await page.click('tr.case:has-text("wrong")');
  assert.equal(await page.$('tr.details'), null, 'a second click collapses the row');

  await page.selectOption('#status-filter', 'passed');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
  const exported = JSON.parse(await readFile((await download.path())!, 'utf8'));
  assert.deepEqual(
    exported.map((r: { id: string }) => r.id),
    ['fast', 'slow'],
  );
  const [csv] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
  assert.match(
    await readFile((await csv.path())!, 'utf8'),
    /^id,status,grade,duration_ms,source,error\r\nfast,passed,,5,tests\/inputs.jsonl:1,\r\nslow,passed,,900,/,
  );
  assert.deepEqual(errors, []);
});

test('hostile agent output is shown as text: no dialog, no script, no element, no request', async () => {
  const hostile = [
    '</script><script>window.__pwned = 1; alert("script")</script>',
    '<img src="http://127.0.0.1:9/x.png" onerror="window.__pwned = 2; alert(\'img\')">',
    '[click](javascript:alert(3)) <a href="javascript:alert(4)">link</a>',
    '<!-- <svg onload="alert(5)">',
  ];
  const cases: ScenarioCase[] = hostile.map((text, i) => ({
    id: i === 0 ? '<b id="x">bold</b>' : `case-${i}`,
    input: text,
    behaviour: () => ({ status: 'failed' as const, error: text, output: text }),
  }));
  const { page, url, dialogs, requests, errors } = await open(cases);
  for (let i = 0; i < hostile.length; i++) await page.click(`tr.case[data-index="${i}"]`);
  const shown = await page.$$eval('tr.details pre', (pres) => pres.map((p) => p.textContent));
  for (const text of hostile)
    assert.equal(shown.filter((s) => s === text).length, 3, `error, input and output shown literally: ${text}`);
  assert.equal(await page.textContent('tr.case td.id'), '<b id="x">bold</b>');
  assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  assert.equal(await page.$$eval('#rows img, #rows a, #rows script, #rows svg, #rows b', (els) => els.length), 0);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(requests, [url], 'the report itself is the only request');
  assert.deepEqual(errors, []);
});

test('10,000 results: the first page is usable quickly and filtering works on all of them', async (t) => {
  const cases: ScenarioCase[] = Array.from({ length: 10_000 }, (_, i) => ({
    id: `case-${String(i).padStart(5, '0')}`,
    behaviour: () =>
      i % 10 === 0
        ? { status: 'failed' as const, error: `wrong answer ${i}`, output: 'x'.repeat(200) }
        : { output: `answer ${i} `.repeat(10), duration_ms: i % 997 },
  }));
  const started = performance.now();
  const { page, errors } = await open(cases, { parallel: 16 });
  t.diagnostic(
    `10,000-row report: written and first page rendered in ${Math.round(performance.now() - started)} ms (including the run)`,
  );
  const reload = performance.now();
  await page.reload();
  await page.waitForSelector('tr.case');
  t.diagnostic(`10,000-row report: page load to first rows ${Math.round(performance.now() - reload)} ms`);
  assert.equal(await page.$$eval('tr.case', (rows) => rows.length), 100);
  assert.equal(await page.textContent('#page-info'), 'Showing 1–100 of 10000');
  await page.selectOption('#status-filter', 'failed');
  assert.equal(await page.textContent('#page-info'), 'Showing 1–100 of 1000 (filtered from 10000)');
  await page.click('#next');
  assert.equal((await ids(page))[0], 'case-01000');
  await page.fill('#search', 'wrong answer 9990');
  assert.deepEqual(await ids(page), ['case-09990']);
  assert.deepEqual(errors, []);
});

test("a failed assertion shows a diff; a flaky case shows each run's output; a skipped case shows no duration", async () => {
  const expected = '{\n  "city": "Paris",\n  "country": "FR"\n}';
  const cases: ScenarioCase[] = [
    {
      id: 'flaky',
      assert: [{ type: 'contains', value: expected }],
      behaviour: (run) => ({ output: run === 2 ? '{\n  "city": "Lyon",\n  "country": "FR"\n}' : expected }),
    },
    { id: 'later', skip: 'needs network' },
  ];
  const { page, errors } = await open(cases, { runs: 2 });
  const durations = await page.$$eval('tr.case td.duration', (cells) => cells.map((c) => c.textContent));
  assert.equal(durations[1], '—', 'the skipped case has no duration');
  await page.click('tr.case:has-text("flaky")');
  const diff = await page.$$eval('tr.details pre.diff span', (spans) => spans.map((s) => [s.className, s.textContent]));
  assert.deepEqual(diff, [
    ['same', '  {'],
    ['del', '-   "city": "Paris",'],
    ['ins', '+   "city": "Lyon",'],
    ['same', '    "country": "FR"'],
    ['same', '  }'],
  ]);
  const runs = await page.$$eval('tr.details div.run', (els) => els.map((e) => e.textContent));
  assert.equal(runs.length, 2);
  assert.match(runs[0]!, /^run 1: passed/);
  assert.match(runs[1]!, /^run 2: failed/);
  const outputs = await page.$$eval('tr.details pre.run-output', (pres) => pres.map((p) => p.textContent));
  assert.deepEqual(
    outputs,
    [expected, '{\n  "city": "Lyon",\n  "country": "FR"\n}'],
    "each run's output of a flaky case",
  );
  assert.deepEqual(errors, []);
});

test("a tagged case's detail names its tags; an untagged one's has no tags line", async () => {
  const { page, errors } = await open([{ id: 'tagged', tags: ['smoke', 'billing'] }, { id: 'plain' }]);
  await page.click('tr.case:has-text("tagged")');
  const lines = await page.$$eval('tr.details div.muted', (divs) => divs.map((d) => d.textContent));
  assert.ok(lines.includes('Tags: smoke, billing'), lines.join(' | '));
  await page.click('tr.case:has-text("tagged")');
  await page.click('tr.case:has-text("plain")');
  const plain = await page.$$eval('tr.details div.muted', (divs) => divs.map((d) => d.textContent));
  assert.ok(!plain.some((line) => line?.startsWith('Tags:')), plain.join(' | '));
  assert.deepEqual(errors, []);
});

/** A dynamic case's conversation as the dynamic plugin records it: three turns, two checkpoints missed. */
const CONVERSATION = {
  simulator: 'sim',
  max_turns: 3,
  total_turns: 3,
  end_reason: 'max_turns',
  turns: [
    {
      turn: 1,
      from: 'input',
      input: 'Hi, a coffee',
      output: 'Hello! What would you like?',
      duration_ms: 12,
      checkpoints_reached: ['greeting'],
    },
    {
      turn: 2,
      from: 'simulator',
      input: 'A latte <b>please</b>',
      output: 'What size?',
      duration_ms: 20,
      checkpoints_reached: ['ask_size'],
    },
    { turn: 3, from: 'simulator', input: 'Medium', output: 'Anything else?', duration_ms: 15 },
  ],
  checkpoints: [
    { id: 'greeting', required: true, reached: true, reached_at_turn: 1 },
    { id: 'ask_size', required: true, reached: true, reached_at_turn: 2 },
    { id: 'confirm', required: true, reached: false, message: "output does not match pattern '(?i)confirm'" },
    { id: 'upsell', required: false, reached: false, waiting_for: ['confirm'] },
  ],
  transcript: [],
};

test('a dynamic case shows its conversation as chat bubbles, each checkpoint marked under the reply that reached it', async () => {
  const { page, errors } = await open([
    {
      id: 'coffee',
      kind: 'dynamic',
      behaviour: () => ({
        status: 'failed',
        error: 'max turns (3) exceeded',
        output: 'Anything else?',
        details: { dynamic: CONVERSATION },
      }),
    },
  ]);
  await page.click('tr.case:has-text("coffee")');
  const chat = await page.$$eval('tr.details .chat > div', (items) =>
    items.map((item) => `${item.className}: ${item.querySelector('.text')?.textContent ?? item.textContent}`),
  );
  assert.deepEqual(chat, [
    'bubble user input: Hi, a coffee',
    'bubble agent: Hello! What would you like?',
    'checkpoint reached: ✓ checkpoint greeting reached (turn 1)',
    'bubble user: A latte <b>please</b>',
    'bubble agent: What size?',
    'checkpoint reached: ✓ checkpoint ask_size reached (turn 2)',
    'bubble user: Medium',
    'bubble agent: Anything else?',
    "checkpoint missed: ✗ checkpoint confirm not reached: output does not match pattern '(?i)confirm'",
    'checkpoint missed optional: ✗ checkpoint upsell (optional) not reached: waiting for confirm',
  ]);
  assert.match(
    (await page.textContent('tr.details .details'))!,
    /3 turns \(max 3\), max turns reached · checkpoints 2\/4: greeting@1 ask_size@2 confirm ✗ upsell \(optional\) –/,
  );
  // Users' bubbles are on the right, the agent's on the left.
  const [user, agent] = await Promise.all(
    ['.bubble.user', '.bubble.agent'].map((sel) =>
      page.$eval(`tr.details ${sel}`, (e) => getComputedStyle(e).alignSelf),
    ),
  );
  assert.deepEqual([user, agent], ['flex-end', 'flex-start']);
  assert.equal(await page.$('tr.details .chat b'), null, 'what the user said is text, not markup');
  assert.deepEqual(errors, []);
});
