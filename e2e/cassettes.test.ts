import assert from 'node:assert/strict';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { startFakeLlm, type MatchInput } from '@agentest/fake-llm';
import { runCli } from './helpers/cli.js';
import { readEvents, type Event } from './helpers/events.js';
import { connectorConfig, notRunOutput, workspace, writeCases, writeJson } from './helpers/workspace.js';

/**
 * The proof of record and replay on the example app: its keyword suite (hooks, JSON answers) and its
 * orders suite (a tool loop through an MCP server) are recorded against the fake server, then
 * replayed with the server stopped, and must come out the same.
 */

const APP = fileURLToPath(new URL('../examples/app/', import.meta.url));
const SUITES = ['assistants/keyword/tests/inputs.jsonl', 'assistants/orders/tests/inputs.jsonl'];

/** A model for both assistants: a lookup for an order number, then a sentence from the tool's result. */
function orderDesk({ text, request }: MatchInput) {
  const messages = (request as { messages?: { role: string; content?: unknown }[] }).messages ?? [];
  const last = messages.at(-1);
  if (last?.role === 'tool') return `Order details: ${String(last.content).slice(0, 80)}`;
  const order = /A\d{4}/.exec(text)?.[0];
  if (order)
    return { text: '', toolCalls: [{ name: 'agents_orders_shop__lookup_order', arguments: { order_id: order } }] };
  return JSON.stringify({
    keywords: text.split(/\s+/).slice(0, 3),
    need_search: /news|price|weather/i.test(text),
    confidence: 0.9,
  });
}

/** A copy of the example app whose config adds a connector to the fake server (so cassettes land in the copy). */
function appCopy(url: string): string {
  const dir = join(workspace('cassettes'), 'app');
  cpSync(APP, dir, { recursive: true, filter: (path) => notRunOutput(path) && !path.includes('__cassettes__') });
  rmSync(join(dir, 'agentest.config.ts'));
  writeFileSync(
    join(dir, 'agentest.config.mjs'),
    `export default ${JSON.stringify({ connectors: { fake: { type: 'openai', model: 'fake-model', host: url } } })};\n`,
  );
  return dir;
}

const verdicts = (events: Event[]) =>
  events.filter((e) => e.type === 'result').map((e) => [e.id, e.status, JSON.stringify(e.output), e.error ?? '']);

async function agentest(dir: string, suite: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const run = await runCli(['test', '-i', suite, '-c', 'fake', '-o', 'run.jsonl', ...args], {
    cwd: dir,
    env: { CI: '', ...env },
  });
  return { run, events: readEvents(join(dir, 'run.jsonl')) };
}

describe('record and replay the example app', () => {
  it('recorded against the fake server, replayed with it stopped: identical verdicts and outputs; a changed prompt fails lockdown naming the case', async () => {
    const llm = await startFakeLlm({ rules: [{ reply: orderDesk }] });
    const dir = appCopy(llm.url);
    const recorded: Record<string, string[][]> = {};
    try {
      for (const suite of SUITES) {
        const { run, events } = await agentest(dir, suite, ['--record', '--runs', '1']);
        assert.ok(run.code === 0 || run.code === 1, run.stderr);
        recorded[suite] = verdicts(events);
        assert.ok(recorded[suite]!.length >= 6);
      }
    } finally {
      await llm.close();
    }
    const calls = llm.requests.length;
    for (const suite of SUITES) {
      const { run, events } = await agentest(dir, suite, ['--replay', '--runs', '1']);
      assert.ok(run.code === 0 || run.code === 1, run.stderr);
      assert.deepEqual(verdicts(events), recorded[suite], `${suite} replays as recorded`);
      const summary = events.find((e) => e.type === 'summary')!;
      assert.equal((summary.usage as { replayed: number }).replayed, (summary.usage as { calls: number }).calls);
    }
    assert.equal(llm.requests.length, calls);

    // The tool loop's calls are on tape too: the MCP tool boundary.
    const orders = readFileSync(join(dir, 'assistants/orders/tests/__cassettes__/inputs/O01.jsonl'), 'utf8');
    assert.match(orders, /"kind":"tool","role":"agent","run":1,"turn":0,"call":1,"source":"agents\.orders\.shop"/);

    const prompts = join(dir, 'assistants/keyword/prompts.yml');
    writeFileSync(prompts, readFileSync(prompts, 'utf8').replace('You extract keywords.', 'You extract key terms.'));
    const { run, events } = await agentest(dir, SUITES[0]!, ['--runs', '1', '--run', 'T001'], { CI: 'true' });
    assert.equal(run.code, 1);
    const result = events.find((e) => e.type === 'result')!;
    assert.equal(result.status, 'error');
    assert.match(result.error!, /case "T001": no recording for its agent model call 1 of run 1 .*lockdown: CI is set/);
    assert.match(
      result.error!,
      /request \$\.messages\[\d\]\.content: ".*You extract keywords\..*" → ".*You extract key terms\..*"/,
    );
    assert.equal(llm.requests.length, calls, 'lockdown made no call');
  });

  it('--runs 3 against a model that answers differently each time replays the three answers in order', async () => {
    let n = 0;
    const llm = await startFakeLlm({ rules: [{ reply: () => `answer ${++n}` }] });
    const dir = appCopy(llm.url);
    const suite = SUITES[0]!;
    try {
      await agentest(dir, suite, ['--record', '--runs', '3', '--run', 'T002']);
    } finally {
      await llm.close();
    }
    const { events } = await agentest(dir, suite, ['--replay', '--runs', '3', '--run', 'T002']);
    const runs = events.filter((e) => e.type === 'run_result').map((e) => (e.execution as { output: unknown }).output);
    assert.deepEqual(runs, ['answer 1', 'answer 2', 'answer 3']);
  });

  it("an LLM judge's samples are recorded as judge calls apart from the agent's, and replay to the same verdict", async () => {
    const llm = await startFakeLlm({
      rules: [
        { match: /criteria/, reply: '{"passed": true, "reason": "polite"}' },
        { reply: 'Hello! How can I help?' },
      ],
    });
    const dir = workspace('cassettes-judge');
    writeJson(dir, 'agentest.config.json', connectorConfig(llm.url));
    writeCases(dir, 'cases.jsonl', [
      { id: 'greet', input: 'hi', assert: { type: 'agent', use: 'connector:fake', value: 'is polite', samples: 3 } },
    ]);
    const args = ['test', '-i', 'cases.jsonl', '-n', 'bot', '-o', 'run.jsonl', '--config', 'agentest.config.json'];
    try {
      const recorded = await runCli([...args, '--record'], { cwd: dir, env: { CI: '' } });
      assert.equal(recorded.code, 0, recorded.stderr + recorded.stdout);
    } finally {
      await llm.close();
    }
    const entries = readFileSync(join(dir, '__cassettes__/cases/greet.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { role: string });
    assert.deepEqual(entries.map((e) => e.role).sort(), ['agent', 'judge', 'judge', 'judge']);
    const reports = ['-o', 'report.md', '-o', 'summary.txt', '-o', 'junit.xml', '-o', 'report.html'];
    const replayed = await runCli([...args, ...reports, '--replay'], { cwd: dir, env: { CI: '' } });
    assert.equal(replayed.code, 0, replayed.stderr + replayed.stdout);
    // Tokens and cost in every report: the total, and per case where a report lists cases.
    const usage =
      /4 model calls \(4 replayed\) · [\d,]+ tokens \([\d,]+ in, [\d,]+ out\) · \$0\.\d{4} \(no price for fake-model\)/;
    assert.match(readFileSync(join(dir, 'report.md'), 'utf8'), new RegExp(`Usage \\| ${usage.source}`));
    assert.match(readFileSync(join(dir, 'report.md'), 'utf8'), new RegExp(`\\*\\*Usage:\\*\\* ${usage.source}`));
    assert.match(readFileSync(join(dir, 'summary.txt'), 'utf8'), usage);
    assert.match(readFileSync(join(dir, 'report.html'), 'utf8'), usage);
    assert.match(readFileSync(join(dir, 'junit.xml'), 'utf8'), /<property name="usage\.calls" value="4"\/>/);
    const result = readEvents(join(dir, 'run.jsonl')).find((e) => e.type === 'result')!;
    assert.equal(result.status, 'passed');
    assert.equal((result.usage as { replayed: number }).replayed, 4);
  });
});
