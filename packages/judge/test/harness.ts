import {
  createKernel,
  type AgentestPlugin,
  type Assertion,
  type CaseResult,
  type RunOutcome,
  type RunPlan,
  type TestCase,
} from '@agentest/kernel';
import type { ConnectorConfig } from '@agentest/connectors';
import { agents } from '@agentest/plugin-agent';
import { startFakeLlm, type FakeLlm, type FakeLlmOptions } from '@agentest/fake-llm';
import judgePlugin from '../src/index.js';

/** A wait that only catches hangs: far above what a judged case takes on a busy machine. */
export const HANG_MS = 60_000;

export interface JudgedCase {
  id: string;
  input?: unknown;
  output: unknown;
  assert: Assertion[];
}

/** An openai connector on the fake server, without retries so a fault is seen once. */
export function fakeConnector(llm: FakeLlm, options: Record<string, unknown> = {}): ConnectorConfig {
  return { type: 'openai', options: { host: llm.url, model: 'judge-fake', retries: 0, backoff_ms: 1, ...options } };
}

/**
 * Runs cases whose agent answers a fixed output, with the judge plugin and the agent plugin's
 * config agents and connectors (the judges), and collects the `result` events.
 */
export async function runJudged(
  cases: JudgedCase[],
  config: {
    connectors?: Record<string, ConnectorConfig>;
    agents?: Record<string, unknown>;
    runs?: number;
    plugins?: AgentestPlugin[];
  },
): Promise<{ results: Map<string, CaseResult>; summary: RunOutcome['summary'] }> {
  const results = new Map<string, CaseResult>();
  const outputs = new Map(cases.map((c) => [c.id, c.output]));
  const testCases: TestCase[] = cases.map((c, i) => ({
    id: c.id,
    kind: 'agent',
    input: c.input ?? c.id,
    messages: [{ role: 'user', content: String(c.input ?? c.id) }],
    assert: c.assert,
    source: { file: 'inline.jsonl', line: i + 1 },
  }));
  const inline: AgentestPlugin = {
    name: 'test:inline',
    apply({ hooks }) {
      hooks.load.tapPromise('test:inline', async () => ({ name: 'inline', needsAgent: false, cases: () => testCases }));
      hooks.execute.for('agent').tapPromise('test:inline', async (c, ctx) => ({
        run: ctx.run,
        status: 'passed',
        duration_ms: 1,
        output: outputs.get(c.id),
        assertions: [],
        metrics: {},
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }));
      hooks.report.tap('test:inline', (event) => void (event.type === 'result' && results.set(event.id, event)));
    },
  };
  const plan: RunPlan = {
    input: { input: 'inline', cwd: process.cwd() },
    runs: config.runs ?? 1,
    parallel: 4,
    failFast: false,
    env: {},
    verbose: false,
  };
  const kernel = createKernel({
    plugins: [
      ...(config.plugins ?? []),
      inline,
      agents({ connectors: config.connectors ?? {}, agents: (config.agents ?? {}) as never }),
      judgePlugin(),
    ],
  });
  const outcome = await kernel.run(plan);
  return { results, summary: outcome.summary };
}

/** The JSON payload the judge received in a recorded request (its last user message). */
export function payloadOf(body: unknown): Record<string, unknown> {
  const messages = (body as { messages: { role: string; content: string }[] }).messages;
  return JSON.parse(messages.at(-1)!.content) as Record<string, unknown>;
}

/** Starts a fake server for one test and closes it afterwards, whatever happens. */
export async function withFake<T>(options: FakeLlmOptions, body: (llm: FakeLlm) => Promise<T>): Promise<T> {
  const llm = await startFakeLlm(options);
  try {
    return await body(llm);
  } finally {
    await llm.close();
  }
}

/** A connector-judged assertion, with `extra` fields. */
export const judged = (extra: Record<string, unknown> = {}) => ({
  type: 'agent',
  use: 'connector:judge',
  value: 'Response should greet the user',
  ...extra,
});
