import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import type { Agent } from '@agentest/kernel';
import { createReporter as markdownReport } from '@agentest/reporter-markdown';
import llmReporter from '../src/index.js';
import { runScenario, tempDir } from '../../report/test/scenario.js';

const CHROMIUM = process.env.AGENTEST_CHROMIUM ?? '/usr/bin/chromium';
/** Browser start-up and page waits only catch hangs: Playwright's 30 s default is a budget a busy machine can miss. */
const BROWSER_HANG_MS = 120_000;
let browser: Browser;

before(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: this test opens the agent's report in a real browser. Run \`apt-get install chromium\` (or set AGENTEST_CHROMIUM).`,
    );
  }
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--headless'],
    timeout: BROWSER_HANG_MS,
  });
});
after(() => browser?.close());

/**
 * What a reporter agent might write when it quotes a hostile case output verbatim, in every place a script can hide.
 */
const HOSTILE_REPLIES: Record<string, string> = {
  'a whole document':
    '<!DOCTYPE html>\n<html><head><title>Report</title></head><body><h1>Report</h1><p>T001 said: <img src=x onerror="window.pwned=1;alert(1)"></p><script>window.pwned=2;alert(2)</script></body></html>',
  'a fragment':
    '<h1>Report</h1><svg onload="window.pwned=3;alert(3)"></svg><iframe srcdoc="<script>parent.pwned=4;alert(4)</script>"></iframe>',
  'its own permissive policy': `<html><head><meta http-equiv="Content-Security-Policy" content="script-src 'unsafe-inline' *"></head><body onload="window.pwned=5;alert(5)"><script>window.pwned=6</script></body></html>`,
};

for (const [what, reply] of Object.entries(HOSTILE_REPLIES)) {
  test(`the agent's HTML report runs no script: ${what}`, async () => {
    const dir = await tempDir();
    const agent: Agent = { id: 'report.beautiful', run: async () => ({ content: reply, text: reply }) };
    const outcome = await runScenario(
      [{ id: 'T001', behaviour: () => ({ output: '<img src=x onerror=alert(1)>' }) }],
      [
        llmReporter({
          agent: async () => agent,
          format: 'html',
          output: 'report.html',
          cwd: dir,
          fallback: markdownReport({ output: 'report.html', cwd: dir }),
        }),
      ],
    );
    assert.deepEqual(outcome.errors, []);
    const context = await browser.newContext();
    context.setDefaultTimeout(BROWSER_HANG_MS);
    after(() => context.close());
    const page = await context.newPage();
    const dialogs: string[] = [];
    const violations: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(pathToFileURL(join(dir, 'report.html')).href, { waitUntil: 'load' });
    assert.equal(
      await page.evaluate(() => (window as unknown as { pwned?: number }).pwned),
      undefined,
      'no script ran',
    );
    assert.deepEqual(dialogs, []);
    assert.ok(violations.length > 0, 'the browser refused the scripts under the policy');
    assert.ok(
      (await page.textContent('body'))!.includes('Report') || what === 'its own permissive policy',
      'the report itself still renders',
    );
  });
}
