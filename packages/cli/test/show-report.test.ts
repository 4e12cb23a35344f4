import { test } from 'node:test';
import assert from 'node:assert/strict';
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { fixture, PASSING } from './helpers.js';
import { agentestInProcess } from './in-process.js';

/** No browser in tests: BROWSER=none prints the report's path instead of opening it. */
const NO_BROWSER = { BROWSER: 'none' };

test('show-report finds the newest HTML report agentest wrote in the project, and prints it with BROWSER=none', async () => {
  const dir = fixture({
    'suite/cases.jsonl': PASSING,
    'docs/index.html': '<!DOCTYPE html><title>not a report</title>',
  });
  const older = await agentestInProcess(['test', '-i', 'suite/cases.jsonl', '-n', 'echo', '-o', 'old/report.html'], {
    cwd: dir,
  });
  assert.equal(older.code, 0, older.stderr);
  const newer = await agentestInProcess(['test', '-i', 'suite/cases.jsonl', '-n', 'echo', '-o', 'suite/new.html'], {
    cwd: dir,
  });
  assert.equal(newer.code, 0, newer.stderr);
  const past = new Date(Date.now() - 60_000);
  utimesSync(join(dir, 'old/report.html'), past, past);
  // An HTML file that is not a report is never taken for one, however new.
  utimesSync(join(dir, 'docs/index.html'), new Date(), new Date());

  const shown = await agentestInProcess(['show-report'], { cwd: join(dir, 'suite'), env: NO_BROWSER });
  assert.equal(shown.code, 0, shown.stderr);
  assert.equal(shown.stdout, `${join(dir, 'suite/new.html')}\n`);

  const given = await agentestInProcess(['show-report', 'old/report.html'], { cwd: dir, env: NO_BROWSER });
  assert.equal(given.code, 0, given.stderr);
  assert.equal(given.stdout, `${join(dir, 'old/report.html')}\n`);
});

test('show-report <folder> opens its index.html, as the scaffold and CI artifacts lay reports out', async () => {
  const dir = fixture({ 'cases.jsonl': PASSING });
  const run = await agentestInProcess(['test', '-i', 'cases.jsonl', '-n', 'echo', '-o', 'agentest-report/index.html'], {
    cwd: dir,
  });
  assert.equal(run.code, 0, run.stderr);
  const shown = await agentestInProcess(['show-report', 'agentest-report'], { cwd: dir, env: NO_BROWSER });
  assert.equal(shown.code, 0, shown.stderr);
  assert.equal(shown.stdout, `${join(dir, 'agentest-report/index.html')}\n`);
});

test('show-report without a report says how to make one; a file that is not a report is refused', async () => {
  const dir = fixture({ 'page.html': '<!DOCTYPE html><title>hello</title>' });
  const none = await agentestInProcess(['show-report'], { cwd: dir, env: NO_BROWSER });
  assert.equal(none.code, 2);
  assert.match(
    none.stderr,
    /error\[REPORT_NOT_FOUND\]: no HTML report under .*; write one with `agentest test -i <suite> -o report\.html`/,
  );
  const missing = await agentestInProcess(['show-report', 'nope.html'], { cwd: dir, env: NO_BROWSER });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /error\[REPORT_NOT_FOUND\]: nope\.html: no such file/);
  const other = await agentestInProcess(['show-report', 'page.html'], { cwd: dir, env: NO_BROWSER });
  assert.equal(other.code, 2);
  assert.match(other.stderr, /error\[REPORT_NOT_FOUND\]: page\.html: not an HTML report written by agentest/);
});

test('show-report opens the report with the command BROWSER names, and says so', async () => {
  const dir = fixture({ 'cases.jsonl': PASSING });
  await agentestInProcess(['test', '-i', 'cases.jsonl', '-n', 'echo', '-o', 'report.html'], { cwd: dir });
  // `true` stands in for a browser: it accepts the URL and exits.
  const shown = await agentestInProcess(['show-report'], { cwd: dir, env: { BROWSER: 'true' } });
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /^Opening report\.html \(written .+\)\n$/);
  const broken = await agentestInProcess(['show-report'], { cwd: dir, env: { BROWSER: join(dir, 'no-such-browser') } });
  assert.equal(broken.code, 0, 'the report is there; only the browser is missing');
  assert.equal(broken.stdout, `${join(dir, 'report.html')}\n`);
  assert.match(
    broken.stderr,
    /Could not open a browser \(.*no-such-browser: spawn .* ENOENT\); open the file above yourself/,
  );
});

test("without a file, the search stays in the config's folder: another project's newer report is not taken", async () => {
  const dir = fixture({ 'app/agentest.config.json': '{}', 'app/cases.jsonl': PASSING, 'other/cases.jsonl': PASSING });
  const mine = await agentestInProcess(['test', '-i', 'cases.jsonl', '-n', 'echo', '-o', 'mine.html'], {
    cwd: join(dir, 'app'),
  });
  assert.equal(mine.code, 0, mine.stderr);
  const other = await agentestInProcess(['test', '-i', 'cases.jsonl', '-n', 'echo', '-o', 'other.html'], {
    cwd: join(dir, 'other'),
  });
  assert.equal(other.code, 0, other.stderr);
  const past = new Date(Date.now() - 60_000);
  utimesSync(join(dir, 'app/mine.html'), past, past);
  const shown = await agentestInProcess(['show-report'], { cwd: join(dir, 'app'), env: NO_BROWSER });
  assert.equal(shown.code, 0, shown.stderr);
  assert.equal(shown.stdout, `${join(dir, 'app/mine.html')}\n`);
});
