#!/usr/bin/env node
// The offline demo: the Yao keyword assistant (mock connector, no API key) with 3 runs per case,
// answered from the cassettes committed beside the suite (tests/__cassettes__/, see docs/replay.md),
// writing every report format; then the same suite run again against the first run as its baseline,
// the two runs compared into an HTML page, and one flaky case shown over time from the run history;
// then a suite of agent-judged assertions (samples: 3) with a scripted judge. The suites hold deliberate
// failures and flaky cases,
// so the CLI exits 1; the demo reports that and exits 0 when the runs themselves worked.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
const app = new URL('../examples/app/', import.meta.url).pathname;
const tests = 'assistants/keyword/tests';
const cli = ['--import', 'tsx', '--conditions=@agentest/source', `${root}packages/cli/src/bin.ts`];
// Replayed from the committed cassettes, unless the demo is asked for another cassette mode.
const asked = process.argv.slice(2);
const extra = asked.some((a) => /^--(record|replay|cassettes)\b/.test(a)) ? asked : ['--replay', ...asked];
const agentest = (args, stdout = 'inherit') =>
  spawnSync(process.execPath, [...cli, ...args], { cwd: app, stdio: ['inherit', stdout, 'inherit'] }).status ?? 1;
const streams = () => new Set(readdirSync(`${app}${tests}`).filter((name) => /^output-\d+\.jsonl$/.test(name)));

const before = streams();
const first = agentest(['test', '-i', `${tests}/inputs.jsonl`, ...extra]);
const written = [...streams()].filter((name) => !before.has(name));
if (first !== 1 && first !== 0) process.exit(first);
if (written.length !== 1) {
  console.log('\nDemo finished after the first run (it wrote no event stream to compare with).');
  process.exit(0);
}
const baseline = `${tests}/${written[0]}`;
console.log(`\nThe same suite again, compared with the first run (--baseline ${baseline}):`);
const second = agentest([
  'test',
  '-i',
  `${tests}/inputs.jsonl`,
  '--baseline',
  baseline,
  '-o',
  `${tests}/output-rerun.jsonl`,
  ...extra,
]);
if (second !== 1 && second !== 0) process.exit(second);
// The comparison was printed by --baseline above; this writes it as a page and a pull-request comment.
const compared = agentest(
  [
    'compare',
    baseline,
    `${tests}/output-rerun.jsonl`,
    '-o',
    `${tests}/output-comparison.html`,
    '-o',
    `${tests}/output-comparison.md`,
  ],
  'ignore',
);
if (compared === 2) process.exit(2);
// Both runs went into the history (.agentest/history/ in examples/app): one flaky case over time.
console.log('\nOne flaky case over every demo run so far (agentest history T014):\n');
agentest(['history', 'T014', '-i', `${tests}/inputs.jsonl`]);
// Judged assertions: a scripted judge (connectors/mock/judge.conn.yao, and the `judge` assistant)
// asked three times per assertion; each case shows agent variance apart from judge variance.
console.log('\nAgent-judged assertions (samples: 3), judged offline by a scripted judge:');
const judged = agentest(['test', '-i', `${tests}/judged.jsonl`, '-o', `${tests}/output-judged.json`, ...extra]);
if (judged !== 1 && judged !== 0) process.exit(judged);
console.log('\nDemo finished. agentest test exited 1 because the example suite contains deliberate failures and flaky');
console.log(
  `cases; the reports are in examples/app/${tests}/, with the comparison of the two runs in output-comparison.html`,
);
console.log(
  'and output-comparison.md. The flaky cases flip between runs, and the comparison says whether that is more',
);
console.log('than chance. The judged suite (judged.jsonl) shows each judge verdict with its agreement (e.g. 2/3) in');
console.log(`output-judged.json, and a judge that disagrees with itself (J04). Try: npm run demo -- --run T01 -v`);
process.exit(0);
