import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture, jsonl, readJsonl } from './helpers.js';
import { agentestInProcess } from './in-process.js';

/** Three cases against the echo agent; `T2` passes only when `t2Passes`. */
const suite = (t2Passes: boolean) =>
  jsonl([
    { id: 'T1', input: 'hello world', assert: { type: 'contains', value: 'hello' } },
    { id: 'T2', input: 'good morning', assert: { type: 'contains', value: t2Passes ? 'morning' : 'evening' } },
    { id: 'T3', input: 'hi there', assert: { type: 'contains', value: 'there' } },
  ]);

const historyFiles = (dir: string) =>
  existsSync(join(dir, '.agentest/history')) ? readdirSync(join(dir, '.agentest/history')) : [];

async function run(dir: string, args: string[], cwd = dir) {
  return agentestInProcess(args, { cwd });
}

/** A project whose T2 passed, failed and passed in three runs of the echo agent, in a git work tree. */
const flakyProject = (() => {
  let made: Promise<{ dir: string; third: Awaited<ReturnType<typeof run>> }> | undefined;
  return () =>
    (made ??= (async () => {
      const dir = fixture({ 'tests/cases.jsonl': suite(true) });
      execFileSync('git', ['init', '-q', '-b', 'trunk'], { cwd: dir });
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'x'], {
        cwd: dir,
      });
      const tests = join(dir, 'tests');
      // Run from the suite's folder: the history still goes to the project root (the package.json's folder).
      assert.equal((await run(dir, ['test', '-i', 'cases.jsonl', '-n', 'echo', '--no-jsonl'], tests)).code, 0);
      writeFileSync(join(tests, 'cases.jsonl'), suite(false));
      assert.equal((await run(dir, ['test', '-i', 'tests/cases.jsonl', '-n', 'echo', '--no-jsonl'])).code, 1);
      writeFileSync(join(tests, 'cases.jsonl'), suite(true));
      const third = await run(dir, [
        'test',
        '-i',
        'tests/cases.jsonl',
        '-n',
        'echo',
        '-o',
        'out/r.json',
        '-o',
        'out/r.jsonl',
      ]);
      return { dir, third };
    })());
})();

test('each run is recorded in .agentest/history/ at the project root; a case that flips is flagged flaky in the console', async () => {
  const { dir, third } = await flakyProject();
  assert.equal(third.code, 0, third.stderr);
  assert.equal(historyFiles(dir).length, 3);
  assert.match(
    third.stdout,
    /Flaky \(from the run history\): 1\n.*~ \[T2\] flipped 2 of 2 times \(flip rate 100%, 95% CI 34%–100%\)/,
  );

  const record = JSON.parse(readFileSync(join(dir, '.agentest/history', historyFiles(dir)[2]!), 'utf8'));
  assert.equal(record.input, 'tests/cases.jsonl', 'the same suite from any folder');
  assert.equal(record.git.branch, 'trunk');
  assert.match(record.git.commit, /^[0-9a-f]{40}$/);
  assert.equal(record.agent, 'echo');
  assert.deepEqual(
    record.cases.map((c: { id: string; status: string }) => [c.id, c.status]),
    [
      ['T1', 'passed'],
      ['T2', 'passed'],
      ['T3', 'passed'],
    ],
  );

  const json = JSON.parse(readFileSync(join(dir, 'out/r.json'), 'utf8'));
  assert.deepEqual(
    json.summary.flaky.map((f: { id: string }) => f.id),
    ['T2'],
  );
  const events = readJsonl(readFileSync(join(dir, 'out/r.jsonl'), 'utf8'));
  const t2 = events.find((e) => e.type === 'result' && e.id === 'T2')!;
  assert.deepEqual(t2.history, {
    recent: ['passed', 'failed', 'passed'],
    flaky: { flips: 2, transitions: 2, flip_rate: 1, flip_rate_ci: [0.342, 1] },
  });
});

test('every report carries the flaky case: JSON, JSONL, Markdown, HTML, JUnit and the text summary', async () => {
  const { dir } = await flakyProject();
  const formats = await run(dir, [
    'test',
    '-i',
    'tests/cases.jsonl',
    '-n',
    'echo',
    '--no-history',
    ...['-o', 'out/r.md', '-o', 'out/r.html', '-o', 'out/r.xml', '-o', 'out/r.txt'],
  ]);
  assert.equal(formats.code, 0, formats.stderr);
  const markdown = readFileSync(join(dir, 'out/r.md'), 'utf8');
  assert.match(markdown, /## Flaky Cases\n\n.*\n\n\| ID \| Flips \| Flip Rate \| 95% CI \| Recent Outcomes \|/);
  assert.match(markdown, /\| T2 \| 2\/3 \| 66\.7% \| 20\.8%–93\.9% \| 🟢🔴🟢🟢 \|/);
  const html = readFileSync(join(dir, 'out/r.html'), 'utf8');
  assert.match(html, /"recent":\["passed","failed","passed","passed"\],"flaky":"flipped 2 of 3 times/);
  assert.match(html, /<div class="label">Flaky<\/div>|Flaky/);
  const xml = readFileSync(join(dir, 'out/r.xml'), 'utf8');
  assert.match(xml, /<property name="flaky" value="T2"\/>/);
  assert.match(xml, /<property name="flaky.flips" value="2\/3"\/>/);
  assert.match(readFileSync(join(dir, 'out/r.txt'), 'utf8'), /Flaky: +1 \(T2 67% flips\)/);
});

test('agentest history lists the runs and shows one case over time; an unknown case is exit 2 with a suggestion', async () => {
  const { dir } = await flakyProject();
  const list = await run(dir, ['history']);
  assert.equal(list.code, 0);
  assert.match(list.stdout, /tests\/cases\.jsonl +2\/3 passed +1× +echo +[0-9a-f]{8} trunk/);
  assert.match(list.stdout, /3 runs in .*\.agentest\/history/);
  const one = await run(dir, ['history', 'T2']);
  assert.equal(one.code, 0);
  assert.match(one.stdout, /Case T2 in 3 runs, oldest first/);
  assert.match(one.stdout, /failed +✗ .* output does not contain 'evening'/);
  assert.match(one.stdout, /tests\/cases\.jsonl · echo: ✓✗✓ +FLAKY: flipped 2 of 2 times/);
  const unknown = await run(dir, ['history', 'T22']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /no recorded run has a case "T22" \(did you mean "T2"\?\)/);
});

test('--baseline last compares with the latest run of the same input; --last-failed runs only what failed; --order failed-first runs it first', async () => {
  const dir = fixture({ 'cases.jsonl': suite(true) });
  const never = await run(dir, ['test', '-i', 'cases.jsonl', '-n', 'echo', '--baseline', 'last']);
  assert.equal(never.code, 2);
  assert.match(
    never.stderr,
    /--baseline last: no earlier run of cases\.jsonl in the history \(.*\); run the suite once/,
  );
  const neverFailed = await run(dir, ['test', '-i', 'cases.jsonl', '-n', 'echo', '--last-failed']);
  assert.equal(neverFailed.code, 2);
  assert.match(neverFailed.stderr, /--last-failed: no earlier run of cases\.jsonl/);

  assert.equal((await run(dir, ['test', '-i', 'cases.jsonl', '-n', 'echo', '--no-jsonl'])).code, 0);
  const nothing = await run(dir, ['test', '-i', 'cases.jsonl', '-n', 'echo', '--last-failed']);
  assert.equal(nothing.code, 0);
  assert.match(
    nothing.stdout,
    /--last-failed: every case passed in the latest run of cases\.jsonl .*nothing to run again/,
  );

  writeFileSync(join(dir, 'cases.jsonl'), suite(false));
  const compared = await run(dir, ['test', '-i', 'cases.jsonl', '-n', 'echo', '--baseline', 'last', '-o', 'b.json']);
  assert.equal(compared.code, 1);
  const comparison = JSON.parse(readFileSync(join(dir, 'b.json'), 'utf8')).summary.comparison;
  assert.match(comparison.baseline, /^history:\d{8}T\d{9}Z-/);
  assert.deepEqual(comparison.regressed, ['T2']);
  assert.match(compared.stdout, /base +cases\.jsonl · history:/);

  const again = await run(dir, ['test', '-i', 'cases.jsonl', '-n', 'echo', '--last-failed', '-o', 'lf.jsonl']);
  assert.equal(again.code, 1);
  const ran = readJsonl(readFileSync(join(dir, 'lf.jsonl'), 'utf8')).filter((e) => e.type === 'result');
  assert.deepEqual(
    ran.map((e) => e.id),
    ['T2'],
  );

  const ordered = await run(dir, [
    'test',
    '-i',
    'cases.jsonl',
    '-n',
    'echo',
    '--order',
    'failed-first',
    '-o',
    'o.jsonl',
  ]);
  const order = readJsonl(readFileSync(join(dir, 'o.jsonl'), 'utf8')).filter((e) => e.type === 'result');
  assert.equal(order[0]!.id, 'T2', ordered.stdout);
  assert.equal(order.length, 3);

  const badOrder = await run(dir, ['test', '-i', 'cases.jsonl', '-n', 'echo', '--order', 'random']);
  assert.equal(badOrder.code, 2);
  assert.match(badOrder.stderr, /--order must be failed-first, got "random"/);
});

test('the config bounds the history (maxRuns), moves it (dir) or turns it off; --no-history skips one run', async () => {
  const dir = fixture({
    'cases.jsonl': suite(true),
    'agentest.config.json': JSON.stringify({ history: { maxRuns: 2 } }),
  });
  for (let i = 0; i < 3; i++) await run(dir, ['test', '-i', 'cases.jsonl', '-n', 'echo', '--no-jsonl']);
  assert.equal(historyFiles(dir).length, 2);
  await run(dir, ['test', '-i', 'cases.jsonl', '-n', 'echo', '--no-jsonl', '--no-history']);
  assert.equal(historyFiles(dir).length, 2);

  writeFileSync(join(dir, 'agentest.config.json'), JSON.stringify({ history: { dir: 'runs/history' } }));
  await run(dir, ['test', '-i', 'cases.jsonl', '-n', 'echo', '--no-jsonl']);
  assert.equal(readdirSync(join(dir, 'runs/history')).length, 1);

  writeFileSync(join(dir, 'agentest.config.json'), JSON.stringify({ history: { enabled: false } }));
  await run(dir, ['test', '-i', 'cases.jsonl', '-n', 'echo', '--no-jsonl']);
  assert.equal(readdirSync(join(dir, 'runs/history')).length, 1);
  assert.equal(historyFiles(dir).length, 2);

  writeFileSync(join(dir, 'agentest.config.json'), JSON.stringify({ history: { maxRun: 2 } }));
  const typo = await run(dir, ['test', '-i', 'cases.jsonl', '-n', 'echo']);
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /history\.maxRun: unknown key \(did you mean "maxRuns"\?\)/);
});

test('a history that cannot be written is a warning: the run and its reports are complete, its exit code unchanged', async () => {
  const dir = fixture({ 'cases.jsonl': suite(true), '.agentest/history': 'a file where the folder should be' });
  const result = await run(dir, ['test', '-i', 'cases.jsonl', '-n', 'echo', '-o', 'r.json']);
  assert.equal(result.code, 0);
  assert.match(result.stderr, /warning: could not read the run history in .*\.agentest\/history/);
  assert.match(result.stderr, /warning: could not write the run history to .*\.agentest\/history/);
  assert.equal(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')).summary.passed, 3);
});
