/**
 * Agent and network faults, through the real CLI and a connector agent pointed at the fake LLM
 * server: rate limits, server errors, refused and hung connections, malformed and cut replies, and a
 * reply far larger than asked for. Every case must end with a recorded status and reason, retries
 * must be bounded and visible, no case may be lost or reported twice, and the exit code must say
 * what happened.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startFakeLlm, type FakeLlm } from '@agentest/fake-llm';
import { runCli, stackFrames, type CliRun } from './helpers/cli.js';
import { readEvents, resultsById, type Event } from './helpers/events.js';
import { connectorConfig, workspace, writeCases, writeJson } from './helpers/workspace.js';

const HUGE_BYTES = 4_000_000;

/** Each case's input starts with its id, and the fake server's rules key on that prefix. */
const CASES: { id: string; rule?: Record<string, unknown>; extra?: Record<string, unknown> }[] = [
  { id: 'ok' },
  { id: 'storm429', rule: { fault: 429 } },
  { id: 'transient429', rule: { fault: 429, times: 2 } },
  { id: 'retryafter429', rule: { fault: { type: 'status', status: 429, retryAfter: 1 }, times: 1 } },
  { id: 'retryafterlong429', rule: { fault: { type: 'status', status: 429, retryAfter: 3600 } } },
  { id: 'flaky500', rule: { fault: 500, times: 1 } },
  { id: 'flaky502', rule: { fault: 502, times: 1 } },
  { id: 'flaky503', rule: { fault: 503, times: 1 } },
  { id: 'down503', rule: { fault: 503 } },
  { id: 'bad400', rule: { fault: 400 } },
  { id: 'hang', rule: { fault: 'hang' }, extra: { timeout: '1s' } },
  { id: 'malformed', rule: { fault: 'malformed' } },
  { id: 'cutbody', rule: { fault: 'cut' } },
  { id: 'reset', rule: { fault: 'reset', times: 1 } },
  {
    id: 'huge',
    rule: { fault: { type: 'huge', bytes: HUGE_BYTES } },
    extra: { assert: { type: 'contains', value: 'xxxx' } },
  },
];

describe('agent and network faults (CLI, connector agent, fake LLM)', () => {
  const dir = workspace('faults');
  let llm: FakeLlm;
  let run: CliRun;
  let events: Event[];
  let byId: Map<string, Event>;

  before(async () => {
    llm = await startFakeLlm({
      echo: true,
      rules: CASES.filter((c) => c.rule).map((c) => ({ match: `^${c.id}\\b`, ...c.rule })),
    });
    writeJson(dir, 'agentest.config.json', connectorConfig(llm.url, { max_retry_after_ms: 5_000 }));
    writeCases(
      dir,
      'cases.jsonl',
      CASES.map((c) => ({ id: c.id, input: `${c.id} please answer`, ...c.extra })),
    );
    run = await runCli(['test', '-i', 'cases.jsonl', '-n', 'bot', '-o', 'out.jsonl', '--parallel', '8'], { cwd: dir });
    events = readEvents(join(dir, 'out.jsonl'));
    byId = resultsById(
      events,
      CASES.map((c) => c.id),
    );
  });
  after(() => llm?.close());

  const attempts = (id: string) => llm.requests.filter((r) => r.text.startsWith(`${id} `)).length;
  /** The case's one run: with one run per case, its `result` line carries the run's own fields (`retries`, …). */
  const execution = (id: string) => byId.get(id)!;

  test('every case is reported exactly once, with a status and, unless it passed, a reason', () => {
    for (const [id, result] of byId) {
      assert.ok(['passed', 'failed', 'error', 'timeout'].includes(result.status!), `${id}: ${result.status}`);
      if (result.status !== 'passed')
        assert.ok(typeof result.error === 'string' && result.error.length > 10, `${id} has no reason`);
    }
    const summary = events.at(-1)!;
    assert.equal(summary.type, 'summary');
    assert.equal(summary.total, CASES.length);
    const counted =
      (summary.passed as number) +
      (summary.failed as number) +
      (summary.errors as number) +
      (summary.timeouts as number) +
      (summary.skipped as number);
    assert.equal(counted, CASES.length, 'summary counts add up to the number of cases');
    assert.equal(events.filter((e) => e.type === 'start').length, 1);
  });

  test('the exit code is 1 (some cases errored), with no stack trace, and the CLI exits', () => {
    // The CLI exited before runCli's hang deadline: the hung connection did not hold the process open.
    assert.equal(run.code, 1, run.stderr);
    assert.deepEqual(stackFrames(run.stderr + run.stdout), []);
  });

  test('a 429 storm without Retry-After is retried a bounded number of times, then an error naming status and attempts', () => {
    assert.equal(byId.get('storm429')!.status, 'error');
    assert.match(byId.get('storm429')!.error!, /HTTP 429.*3 attempts made, rate-limit retries exhausted/);
    assert.equal(attempts('storm429'), 3, 'retries: 2 means three attempts, no more');
  });

  test('a transient 429 passes after retries, and the result says how many', () => {
    assert.equal(byId.get('transient429')!.status, 'passed');
    assert.equal(execution('transient429').retries, 2);
    assert.equal(attempts('transient429'), 3);
  });

  test('Retry-After is honoured: the retry waits at least that long', () => {
    assert.equal(byId.get('retryafter429')!.status, 'passed');
    assert.equal(execution('retryafter429').retries, 1);
    const [first, second] = llm.requests.filter((r) => r.text.startsWith('retryafter429 '));
    assert.ok(
      second!.receivedAt - first!.receivedAt >= 950,
      `waited only ${second!.receivedAt - first!.receivedAt} ms`,
    );
  });

  test('a Retry-After beyond the limit fails at once instead of stalling the run', () => {
    assert.equal(byId.get('retryafterlong429')!.status, 'error');
    assert.match(byId.get('retryafterlong429')!.error!, /retry after 3600s, over the 5s limit/);
    assert.equal(attempts('retryafterlong429'), 1);
  });

  for (const status of [500, 502, 503]) {
    test(`a single ${status} is retried and the case passes with retries: 1`, () => {
      assert.equal(byId.get(`flaky${status}`)!.status, 'passed');
      assert.equal(execution(`flaky${status}`).retries, 1);
    });
  }

  test('a server that stays down (503) ends as an error after the bounded retries', () => {
    assert.equal(byId.get('down503')!.status, 'error');
    assert.match(byId.get('down503')!.error!, /HTTP 503.*3 attempts/);
    assert.equal(attempts('down503'), 3);
  });

  test('a 400 is not retried', () => {
    assert.equal(byId.get('bad400')!.status, 'error');
    assert.match(byId.get('bad400')!.error!, /HTTP 400.*1 attempt made, not retryable/);
    assert.equal(attempts('bad400'), 1);
  });

  test('a server that accepts and never answers ends as a timeout at the case timeout', () => {
    const hang = byId.get('hang')!;
    assert.equal(hang.status, 'timeout');
    assert.match(hang.error!, /timeout after 1s/);
    assert.ok((hang.duration_ms as number) >= 990, `the case ran to its timeout, ${hang.duration_ms} ms`);
  });

  test('malformed JSON is an error saying so, and is not retried', () => {
    assert.equal(byId.get('malformed')!.status, 'error');
    assert.match(byId.get('malformed')!.error!, /malformed JSON/);
    assert.equal(attempts('malformed'), 1);
  });

  test('a body cut mid-reply is retried, then an error saying the connection closed early', () => {
    assert.equal(byId.get('cutbody')!.status, 'error');
    assert.match(byId.get('cutbody')!.error!, /closed before the reply was complete.*3 attempts/);
  });

  test('a reset connection is retried', () => {
    assert.equal(byId.get('reset')!.status, 'passed');
    assert.equal(execution('reset').retries, 1);
  });

  test('a reply far larger than expected is kept whole and asserted on', () => {
    const huge = byId.get('huge')!;
    assert.equal(huge.status, 'passed', huge.error);
    assert.equal((huge.output as string).length, HUGE_BYTES);
  });

  test('retries stay visible on a case that failed after retrying (execution.retries)', () => {
    assert.equal(execution('storm429').retries, 2);
    assert.equal(execution('down503').retries, 2);
  });
});

describe('a rate-limit storm across a parallel run', () => {
  const dir = workspace('storm');
  let llm: FakeLlm;
  after(() => llm?.close());

  test('40 cases at --parallel 16 through 40 queued 429s (half with Retry-After: 0): all pass, each once, and the recorded retries add up to the requests the server saw', async () => {
    llm = await startFakeLlm({
      echo: true,
      queue: Array.from({ length: 40 }, (_, i) =>
        i % 2 ? { type: 'status' as const, status: 429, retryAfter: 0 } : 429,
      ),
    });
    writeJson(dir, 'agentest.config.json', connectorConfig(llm.url, { retries: 10, rate_limit_retries: 10 }));
    const ids = Array.from({ length: 40 }, (_, i) => `storm-${i}`);
    writeCases(
      dir,
      'cases.jsonl',
      ids.map((id) => ({ id, input: `${id} hi`, assert: { type: 'contains', value: id } })),
    );
    const run = await runCli(['test', '-i', 'cases.jsonl', '-n', 'bot', '-o', 'out.jsonl', '--parallel', '16'], {
      cwd: dir,
    });
    assert.equal(run.code, 0, run.stderr);
    const events = readEvents(join(dir, 'out.jsonl'));
    const byId = resultsById(events, ids);
    for (const result of byId.values()) assert.equal(result.status, 'passed', result.error);
    const retries = [...byId.values()].map((result) => result.retries as number);
    assert.ok(
      retries.every((r) => Number.isInteger(r) && r >= 0 && r <= 10),
      'every run records its retries, within the bound',
    );
    assert.equal(
      retries.reduce((a, b) => a + b, 0) + ids.length,
      llm.requests.length,
      'requests = cases + recorded retries: none hidden, none lost',
    );
    assert.equal(llm.requests.filter((r) => r.fault === 'status:429').length, 40);
  });
});

describe('streaming faults (SSE)', () => {
  const dir = workspace('sse');
  let llm: FakeLlm;
  let byId: Map<string, Event>;
  let run: CliRun;

  before(async () => {
    llm = await startFakeLlm({
      echo: true,
      rules: [
        { match: '^sse-cutonce\\b', fault: { type: 'cut', afterChunks: 2 }, times: 1 },
        { match: '^sse-cut\\b', fault: { type: 'cut', afterChunks: 2 } },
        { match: '^sse-malformed\\b', fault: 'malformed' },
      ],
    });
    writeJson(dir, 'agentest.config.json', connectorConfig(llm.url, { stream: true }));
    writeCases(
      dir,
      'cases.jsonl',
      ['sse-ok', 'sse-cutonce', 'sse-cut', 'sse-malformed'].map((id) => ({ id, input: `${id} stream please` })),
    );
    run = await runCli(['test', '-i', 'cases.jsonl', '-n', 'bot', '-o', 'out.jsonl', '--parallel', '4'], { cwd: dir });
    byId = resultsById(readEvents(join(dir, 'out.jsonl')), ['sse-ok', 'sse-cutonce', 'sse-cut', 'sse-malformed']);
  });
  after(() => llm?.close());

  test('a stream cut mid-reply is retried; one that keeps being cut is an error saying the stream ended early', () => {
    assert.equal(byId.get('sse-ok')!.status, 'passed');
    assert.equal(byId.get('sse-ok')!.output, 'sse-ok stream please');
    assert.equal(byId.get('sse-cutonce')!.status, 'passed', byId.get('sse-cutonce')!.error);
    assert.equal(
      byId.get('sse-cutonce')!.output,
      'sse-cutonce stream please',
      'the retried reply is whole, not the cut prefix',
    );
    assert.equal(byId.get('sse-cut')!.status, 'error');
    assert.match(byId.get('sse-cut')!.error!, /clos|ended|cut|terminated/i);
    assert.equal(run.code, 1);
  });

  test('a malformed SSE event is an error, never a silently truncated pass', () => {
    const result = byId.get('sse-malformed')!;
    assert.equal(result.status, 'error', `status ${result.status}, output ${JSON.stringify(result.output)}`);
    assert.match(result.error!, /malformed|JSON|parse/i);
  });
});

describe('connection refused', () => {
  const dir = workspace('refused');

  test('a closed port is retried, then every case is an error naming ECONNREFUSED; exit code 1', async () => {
    const port = await closedPort();
    writeJson(dir, 'agentest.config.json', connectorConfig(`http://127.0.0.1:${port}`));
    const ids = ['a', 'b', 'c'];
    writeCases(
      dir,
      'cases.jsonl',
      ids.map((id) => ({ id, input: `hello ${id}` })),
    );
    const run = await runCli(['test', '-i', 'cases.jsonl', '-n', 'bot', '-o', 'out.jsonl', '--parallel', '3'], {
      cwd: dir,
    });
    assert.equal(run.code, 1, run.stderr);
    const byId = resultsById(readEvents(join(dir, 'out.jsonl')), ids);
    for (const result of byId.values()) {
      assert.equal(result.status, 'error');
      assert.match(result.error!, /ECONNREFUSED/);
      assert.match(result.error!, /3 attempts made/);
    }
    assert.deepEqual(stackFrames(run.stderr), []);
  });
});

/** A port nothing listens on: bind one, note it, close it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
