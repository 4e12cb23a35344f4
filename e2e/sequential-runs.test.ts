/**
 * `--runs auto`: a sequential test per case against a real (fake) LLM server, counting the calls the
 * server receives. On stable cases it must make at most half the calls of `--runs 10`, with the same
 * verdicts, and every case's report says how many runs it needed and why it stopped.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeLlm, type FakeLlm } from '@agentest/fake-llm';
import { runCli } from './helpers/cli.js';
import { readEvents, resultsById } from './helpers/events.js';
import { connectorConfig, workspace, writeCases, writeJson } from './helpers/workspace.js';

const STABLE = Array.from({ length: 10 }, (_, i) => `stable-${i}`);
let llm: FakeLlm;
let dir: string;
let runCount = 0;

before(async () => {
  // The server echoes every request, except that `broken` always gets an answer its assertion rejects.
  llm = await startFakeLlm({ echo: true, rules: [{ match: '^broken\\b', reply: 'no idea' }] });
  dir = workspace('sequential');
  writeJson(dir, 'agentest.config.json', connectorConfig(llm.url));
  writeCases(
    dir,
    'cases.jsonl',
    [...STABLE, 'broken'].map((id) => ({ id, input: `${id} says hi`, assert: { type: 'contains', value: id } })),
  );
});
after(() => llm.close());

async function calls(args: string[]): Promise<{ calls: number; code: number | null; out: string; stdout: string }> {
  const before = llm.requests.length;
  const out = `run-${++runCount}.jsonl`;
  const run = await runCli(['test', '-i', 'cases.jsonl', '-n', 'bot', '-o', out, '--parallel', '4', ...args], {
    cwd: dir,
  });
  assert.ok(run.code === 0 || run.code === 1, run.stderr);
  return { calls: llm.requests.length - before, code: run.code, out, stdout: run.stdout };
}

test('--runs auto makes at most half the calls of --runs 10 on stable cases, with the same verdicts', async () => {
  const fixed = await calls(['--runs', '10']);
  const auto = await calls(['--runs', 'auto', '-o', 'auto.md', '-o', 'auto.xml']);
  assert.equal(fixed.calls, 110);
  // 4 straight passes accept a stable case; two failures flag the broken one.
  assert.equal(auto.calls, STABLE.length * 4 + 2);
  assert.ok(auto.calls * 2 <= fixed.calls);
  assert.equal(auto.code, fixed.code);
  const fixedResults = resultsById(readEvents(join(dir, fixed.out)));
  const autoResults = resultsById(readEvents(join(dir, auto.out)));
  for (const [id, result] of fixedResults) assert.equal(autoResults.get(id)!.status, result.status, id);
  assert.deepEqual(autoResults.get('stable-0')!.run_policy, {
    runs: 4,
    max: 10,
    decision: 'accepted',
    reason: 'healthy: 4 passed, 0 failed of 4 runs (SPRT p0 0.9 vs p1 0.6)',
  });
  const broken = autoResults.get('broken')!.run_policy as { runs: number; decision: string };
  assert.deepEqual([broken.runs, broken.decision], [2, 'flagged']);
  // The console, Markdown and JUnit say it too.
  assert.match(auto.stdout, /\[broken\][\s\S]*?2 of at most 10 runs: degraded: 0 passed, 2 failed of 2 runs/);
  const markdown = readFileSync(join(dir, 'auto.md'), 'utf8');
  assert.match(markdown, /## Sequential Runs\n\n42 runs of at most 110/);
  assert.match(markdown, /\| stable-0 \| 4 of 10 \| accepted \| healthy: 4 passed, 0 failed of 4 runs/);
  assert.match(readFileSync(join(dir, 'auto.xml'), 'utf8'), /<property name="sequential.decision" value="flagged"\/>/);
});

test('--runs auto:3 caps the runs, and the config sets the test: a stricter p1 keeps a stable case running longer', async () => {
  const capped = await calls(['--runs', 'auto:3']);
  assert.equal(capped.calls, STABLE.length * 3 + 2);
  const undecided = resultsById(readEvents(join(dir, capped.out))).get('stable-0')!.run_policy as {
    decision: string;
    reason: string;
  };
  assert.equal(undecided.decision, 'undecided');
  assert.match(undecided.reason, /no decision at the maximum of 3 runs: 3 passed, 0 failed of 3 runs/);

  writeJson(dir, 'agentest.config.json', {
    ...connectorConfig(llm.url),
    test: { runs: 'auto', sequential: { p0: 0.95, p1: 0.8, max: 12 } },
  });
  try {
    const strict = await calls([]);
    // p0 0.95 vs p1 0.80 needs 10 straight passes; the broken case is flagged at its second failure.
    assert.equal(strict.calls, STABLE.length * 10 + 2);
  } finally {
    writeJson(dir, 'agentest.config.json', connectorConfig(llm.url));
  }
});

test('a bad --runs or test.sequential names the flag or the key and the form it takes', async () => {
  const flag = await runCli(['test', '-i', 'cases.jsonl', '-n', 'bot', '--runs', 'auto:0'], { cwd: dir });
  assert.equal(flag.code, 2);
  assert.match(flag.stderr, /--runs auto:<max> needs a whole number of runs of at least 1, got "auto:0"/);
  writeJson(dir, 'bad.config.json', { ...connectorConfig(llm.url), test: { sequential: { p0: 0.5 } } });
  const config = await runCli(['test', '-i', 'cases.jsonl', '-n', 'bot', '--config', 'bad.config.json'], {
    cwd: dir,
  });
  assert.equal(config.code, 2);
  assert.match(config.stderr, /test\.sequential.*p1 .* must be below p0/);
});
