import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fixture, jsonl } from './helpers.js';
import { agentestInProcess as agentest } from './in-process.js';

const mock = (replies: object[], fallback: string) => ({ type: 'mock', options: { replies, default: fallback } });

/** A judged case and a dynamic one, each talking to mock connectors whose calls the usage meter counts. */
function project(): string {
  return fixture({
    'cases.jsonl': jsonl([
      {
        id: 'judged',
        input: 'a coffee please',
        assert: { type: 'agent', use: 'connector:judge', value: 'asks what to order', samples: 3 },
      },
      {
        id: 'talked',
        input: 'a coffee please',
        simulator: { use: 'sim' },
        checkpoints: [{ id: 'confirm', assert: { type: 'contains', value: 'confirm' } }],
        max_turns: 3,
      },
    ]),
    'agentest.config.mjs': `export default ${JSON.stringify({
      connectors: {
        shop: mock([{ match: 'latte', reply: 'Please confirm: one latte?' }], 'What would you like?'),
        customer: mock([], '{"message": "A latte please"}'),
        judge: mock([], '{"passed": true, "reason": "it asks"}'),
      },
      agents: { shop: { connector: 'shop' }, sim: { connector: 'customer' } },
    })};`,
  });
}

function summaryUsage(dir: string, file: string): any {
  return (JSON.parse(readFileSync(join(dir, file), 'utf8')) as { summary: { usage: any } }).summary.usage;
}

test("the run's usage counts the judges' and the simulated users' calls apart from the agent's", async () => {
  const dir = project();
  const run = await agentest(['test', '-i', 'cases.jsonl', '-n', 'shop', '-o', 'out.json'], { cwd: dir });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const usage = summaryUsage(dir, 'out.json');
  // The agent answered once for "judged" and twice for "talked"; the judge three times; the customer once.
  assert.equal(usage.calls, 7);
  assert.equal(usage.helpers.judge.calls, 3);
  assert.equal(usage.helpers.simulator.calls, 1);
  assert.ok(usage.helpers.judge.total_tokens > 0 && usage.helpers.simulator.total_tokens > 0);
  assert.ok(usage.helpers.judge.total_tokens + usage.helpers.simulator.total_tokens < usage.total_tokens);
  assert.match(
    run.stdout,
    /7 model calls · .* · of which judges 3 calls, [\d,]+ tokens, \$0\.0000; simulated users 1 call, /,
  );
});

test("merged shards add up the helpers' usage as one unsharded run does", async () => {
  const dir = project();
  const whole = await agentest(['test', '-i', 'cases.jsonl', '-n', 'shop', '-o', 'whole.json'], { cwd: dir });
  assert.equal(whole.code, 0, whole.stdout + whole.stderr);
  for (const shard of ['1/2', '2/2']) {
    const part = ['test', '-i', 'cases.jsonl', '-n', 'shop', '--shard', shard, '--run-id', 'r1', '--blob-dir', 'blobs'];
    const run = await agentest(part, { cwd: dir, env: { GITHUB_RUN_ID: '', CI_NODE_INDEX: '' } });
    assert.equal(run.code, 0, run.stdout + run.stderr);
  }
  const merged = await agentest(['merge', 'blobs', '-o', 'merged.json'], { cwd: dir });
  assert.equal(merged.code, 0, merged.stdout + merged.stderr);
  assert.deepEqual(summaryUsage(dir, 'merged.json').helpers, summaryUsage(dir, 'whole.json').helpers);
});

test("a dynamic case's cassette keys the simulated user's calls apart from the agent's, and replays them", async () => {
  const dir = project();
  const args = ['test', '-i', 'cases.jsonl', '-n', 'shop', '--run', 'talked'];
  const recorded = await agentest([...args, '--record'], { cwd: dir });
  assert.equal(recorded.code, 0, recorded.stdout + recorded.stderr);
  const entries = readFileSync(join(dir, '__cassettes__', 'cases', 'talked.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { role?: string });
  assert.deepEqual(
    entries.map((e) => e.role).filter(Boolean),
    ['agent', 'simulator', 'agent'],
    'turn 1: the agent; turn 2: the simulated user, then the agent',
  );
  const replayed = await agentest([...args, '--replay', '-o', 'replayed.json'], { cwd: dir });
  assert.equal(replayed.code, 0, replayed.stdout + replayed.stderr);
  assert.equal(summaryUsage(dir, 'replayed.json').helpers.simulator.calls, 1);
});
