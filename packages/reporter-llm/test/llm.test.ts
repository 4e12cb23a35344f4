import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Agent, AgentestError, Message, Reporter } from '@agentest/kernel';
import { startFakeLlm, type FakeLlm } from '@agentest/fake-llm';
import { connectorAgent, createChatClient } from '@agentest/connectors';
import markdownReporter, { createReporter as markdownReport } from '@agentest/reporter-markdown';
import { createReporter as summaryReport } from '@agentest/reporter-summary';
import llmReporter, { STRICT_CSP, trimReport } from '../src/index.js';
import { mixedCases, runScenario, tempDir, type ScenarioCase } from '../../report/test/scenario.js';

let llm: FakeLlm;
before(async () => {
  llm = await startFakeLlm({});
});
after(() => llm.close());

function reporterAgent(): Agent {
  const client = createChatClient(
    'fake.reporter',
    {
      type: 'openai',
      options: { host: llm.url, model: 'gpt-fake', key: 'sk-test', backoff_ms: 1, max_retries: 0 },
    } as never,
    {},
  );
  return connectorAgent('report.beautiful', client);
}

function lastRequestMessages(): Message[] {
  return (llm.requests.at(-1)!.body as { messages: Message[] }).messages;
}

test('the agent gets the report as the seed says, cites ids, and its fenced reply is written unwrapped', async () => {
  llm.setScript({
    default:
      'Here is your report:\n\n```html\n<html><body><h1>2 of 5 passed</h1><p>Timeouts: T003</p></body></html>\n```\nEnjoy!',
  });
  const dir = await tempDir();
  const output = join(dir, 'reports/custom.html');
  const outcome = await runScenario(mixedCases(), [
    llmReporter({
      agent: async () => reporterAgent(),
      format: 'html',
      output,
      fallback: markdownReport({ output }),
      verbose: true,
    }),
  ]);
  assert.deepEqual(outcome.errors, []);
  assert.ok(outcome.summary.failed > 0, 'the failing cases are still failures');
  assert.equal(
    await readFile(output, 'utf8'),
    `<meta http-equiv="Content-Security-Policy" content="${STRICT_CSP}">\n<html><body><h1>2 of 5 passed</h1><p>Timeouts: T003</p></body></html>\n`,
  );
  const [system, user, ...rest] = lastRequestMessages();
  assert.equal(rest.length, 0);
  assert.equal(system!.role, 'system');
  assert.match(String(system!.content), /complete, self-contained HTML document/);
  assert.match(String(system!.content), /cite the ids of the cases/);
  assert.equal(user!.role, 'user');
  const input = JSON.parse(String(user!.content));
  assert.deepEqual(Object.keys(input), ['report', 'format', 'options']);
  assert.equal(input.format, 'html');
  assert.deepEqual(input.options, { verbose: true, include_outputs: true, include_inputs: true });
  assert.deepEqual(Object.keys(input.report), ['summary', 'environment', 'results', 'metadata']);
  assert.deepEqual(
    input.report.results.map((r: { id: string }) => r.id),
    ['T001', 'T002', 'T003', 'T004', 'T005', 'T006'],
  );
  assert.equal(input.report.summary.agent_id, 'keyword');
  assert.equal(input.report.metadata.trimmed, undefined, 'a report that fits is sent whole');
});

for (const [what, script, reason] of [
  ['throws (HTTP 500)', { queue: [500, 500, 500, 500] }, /reporter agent "report.beautiful" failed: .*500/],
  ['answers nothing', { default: '   ' }, /the reply was empty/],
  ['answers invalid JSON for the json format', { default: '{"broken": ' }, /not valid JSON/],
] as const) {
  test(`the built-in report stays and the run reports REPORTER_FAILED when the agent ${what}`, async () => {
    llm.setScript(script as never);
    const dir = await tempDir();
    const output = join(dir, 'summary.out');
    const format = what.includes('json') ? 'json' : 'text';
    const outcome = await runScenario(mixedCases(), [
      llmReporter({ agent: async () => reporterAgent(), format, output, fallback: summaryReport({ output }) }),
    ]);
    assert.equal(outcome.errors.length, 1);
    const error = outcome.errors[0] as AgentestError;
    assert.equal(error.code, 'REPORTER_FAILED');
    assert.match(error.message, reason);
    assert.match(
      error.message,
      new RegExp(`the built-in ${format} report stays at ${output.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    );
    assert.match(await readFile(output, 'utf8'), /^Agent Test Summary\n/);
  });
}

test('an agent that never answers is abandoned at timeoutMs; one that cannot be resolved fails the same way', async () => {
  // Ten minutes: only giving up at timeoutMs lets the run end before the test file's deadline.
  llm.setScript({ default: 'too late', latencyMs: 600_000 });
  const dir = await tempDir();
  const slow = join(dir, 'slow.md');
  const outcome = await runScenario(mixedCases(), [
    llmReporter({
      agent: async () => reporterAgent(),
      format: 'markdown',
      output: slow,
      fallback: markdownReport({ output: slow }),
      timeoutMs: 200,
    }),
  ]);
  assert.match(outcome.errors[0]!.message, /no reply within 200 ms/);
  assert.match(await readFile(slow, 'utf8'), /^# Agent Test Report/);

  const missing = join(dir, 'missing.md');
  const unresolved = await runScenario(mixedCases(), [
    llmReporter({
      agent: async () => {
        throw new Error('agent "report.nope" not found');
      },
      format: 'markdown',
      output: missing,
      fallback: markdownReport({ output: missing }),
    }),
  ]);
  assert.equal(unresolved.errors.length, 1);
  assert.match(unresolved.errors[0]!.message, /reporter agent failed: agent "report.nope" not found/);
  assert.match(await readFile(missing, 'utf8'), /^# Agent Test Report/);
});

test('a large report is trimmed by priority to fit, and says what was left out', async () => {
  const cases: ScenarioCase[] = Array.from({ length: 400 }, (_, i) => ({
    id: `C${i}`,
    behaviour: (run: number) =>
      i % 40 === 0 || (i % 40 === 1 && run === 2)
        ? { status: 'failed' as const, error: `wrong ${i} ${'!'.repeat(3000)}`, output: 'o'.repeat(5000) }
        : { output: 'fine '.repeat(200) },
  }));
  let sent = '';
  const agent: Agent = {
    id: 'capture',
    run: async (messages) => ((sent = String(messages[1]!.content)), { content: '# ok', text: '# ok' }),
  };
  const dir = await tempDir();
  const output = join(dir, 'big.md');
  const outcome = await runScenario(
    cases,
    [
      llmReporter({
        agent: async () => agent,
        format: 'markdown',
        output,
        fallback: markdownReport({ output }),
        maxInputChars: 20_000,
      }),
    ],
    { runs: 2 },
  );
  assert.deepEqual(outcome.errors, []);
  assert.ok(sent.length <= 20_000 + 200, `message of ${sent.length} chars`);
  const { report } = JSON.parse(sent);
  const trimmed = report.metadata.trimmed;
  assert.match(trimmed.strategy, /failing cases .* then the stability of unstable cases; then the ids of passed/);
  assert.equal(trimmed.failures.total, 20);
  assert.equal(trimmed.failures.included, 20, 'every failure fits once texts are cut');
  assert.equal(report.results[0].id, 'C0');
  assert.ok(report.results[0].output.length <= trimmed.text_limit_chars);
  assert.equal(report.results[1].runs.length, 2);
  assert.equal(trimmed.unstable_stability.total, 20);
  assert.equal(report.stability_results.length, trimmed.unstable_stability.included);
  assert.equal(trimmed.passed_ids.total, 380);
  assert.equal(report.passed_ids.length, trimmed.passed_ids.included);
  assert.equal(report.summary.total, 400, 'the summary is always whole');
  assert.equal(await readFile(output, 'utf8'), '# ok\n');
});

test('trimReport keeps a report that fits untouched', () => {
  const report = {
    summary: { total: 0 },
    environment: {},
    results: [],
    metadata: { started_at: '', completed_at: '', input_file: 'x', kind: 'agent' },
  } as never;
  assert.deepEqual(Object.keys(trimReport(report, 10_000)), ['summary', 'environment', 'results', 'metadata']);
});

test('invalid options name the option at fault', async () => {
  await assert.rejects(
    runScenario(mixedCases(), [
      llmReporter({ agent: 'report.html', format: 'pdf', output: 'x', fallback: markdownReporter } as never),
    ]),
    (e: AgentestError) =>
      e.code === 'PLUGIN_INVALID' &&
      /option "agent"/.test(e.message) &&
      /option "format"/.test(e.message) &&
      /option "fallback" must be a plain reporter object/.test(e.message),
  );
});

test('the fallback is a plain reporter the LLM reporter drives: it hears every event and has written before the agent is asked', async () => {
  const dir = await tempDir();
  const order: string[] = [];
  const fallback: Reporter = {
    name: 'recording-fallback',
    onSetup: (plan) => void order.push(`fallback setup ${plan.runs}`),
    onStart: () => void order.push('fallback start'),
    onCaseStart: (event) => void order.push(`fallback case ${event.id}`),
    onRunResult: (event) => void order.push(`fallback run ${event.id}`),
    onResult: (event) => void order.push(`fallback result ${event.id}`),
    onSummary: async () => void order.push('fallback summary'),
    close: () => void order.push('fallback close'),
  };
  await runScenario(
    [{ id: 'T1' }],
    [
      llmReporter({
        agent: async () => ({
          id: 'report.recording',
          run: async () => (order.push('agent asked'), { content: '# Report', text: '# Report' }),
        }),
        format: 'markdown',
        output: join(dir, 'r.md'),
        fallback,
      }),
    ],
  );
  assert.deepEqual(order, [
    'fallback setup 1',
    'fallback start',
    'fallback case T1',
    'fallback run T1',
    'fallback result T1',
    'fallback summary',
    'agent asked',
    'fallback close',
  ]);
});

test('a fallback that fails is reported on its own and the agent still writes; a plugin is refused as a fallback', async () => {
  const dir = await tempDir();
  const output = join(dir, 'r.md');
  const fallback: Reporter = {
    name: 'broken-fallback',
    onSummary: () => {
      throw new Error('disk full');
    },
  };
  const agent: Agent = { id: 'report.ok', run: async () => ({ content: '# Written', text: '# Written' }) };
  const outcome = await runScenario(mixedCases(), [
    llmReporter({ agent: async () => agent, format: 'markdown', output, fallback }),
  ]);
  assert.deepEqual(
    outcome.errors.map((e) => [(e as AgentestError).code, e.message]),
    [['REPORTER_FAILED', 'reporter "broken-fallback" failed in onSummary: disk full']],
  );
  assert.equal(await readFile(output, 'utf8'), '# Written\n');

  await assert.rejects(
    runScenario(mixedCases(), [
      llmReporter({
        agent: async () => agent,
        format: 'markdown',
        output,
        fallback: markdownReporter({ output }),
      } as never),
    ]),
    /option "fallback" must be a plain reporter object/,
  );
});
