import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createKernel,
  type AgentestPlugin,
  type AgentReply,
  type Message,
  type Assertion,
  type CaseResult,
  type RunPlan,
  type SummaryEvent,
  type TestCase,
} from '@agentest/kernel';
import { cassettesPlugin, usagePlugin, type CassetteOptions, type UsageOptions } from '@agentest/cassettes';
import type { ChatClient } from '../src/index.js';

/** A fresh folder standing for the suite's directory: its cassettes go to `<dir>/__cassettes__/suite/`. */
export function suiteDir(): string {
  return mkdtempSync(join(tmpdir(), 'agentest-cassettes-'));
}

export interface CassetteRun {
  results: CaseResult[];
  summary: SummaryEvent;
}

/**
 * One kernel run of `cases` (one user message each) against `client` as the agent, with cassettes and
 * the usage meter on: the smallest run that goes through the kernel's run scope. A `judge` assertion
 * asks the same client whether the output is fine, as an LLM judge would.
 */
export async function runCases(
  client: ChatClient,
  dir: string,
  cases: { id: string; text: string; judge?: boolean }[],
  options: {
    cassettes: Omit<CassetteOptions, 'cwd'>;
    usage?: UsageOptions;
    runs?: number;
    parallel?: number;
    /** The agent's calls, when one call per case is not the point. */
    agent?: (client: ChatClient, messages: Message[], signal: AbortSignal) => Promise<AgentReply>;
  },
): Promise<CassetteRun> {
  const results: CaseResult[] = [];
  const file = join(dir, 'suite.jsonl');
  const testCases = toCases(file, cases);
  const inline: AgentestPlugin = {
    name: 'test:inline',
    apply({ hooks }) {
      hooks.load.tapPromise('test:inline', async () => ({ name: 'suite', needsAgent: true, cases: () => testCases }));
      hooks.resolve.tapPromise('test:inline', async () => ({
        id: 'model',
        run: (messages, _ctx, signal) =>
          options.agent ? options.agent(client, messages, signal) : client.chat({ messages }, signal),
      }));
      hooks.execute.for('agent').tapPromise('test:inline', async (c, ctx) => {
        const reply = await ctx.agent!.run(c.messages, ctx.context, ctx.signal);
        return { run: ctx.run, status: 'passed', duration_ms: 1, output: reply.content, assertions: [], metrics: {} };
      });
      hooks.assert.for('judge').tapPromise('test:inline', async (_a, input) => {
        const verdict = await client.chat(
          { messages: [{ role: 'user', content: `judge: ${String(input.output)}` }] },
          input.signal,
        );
        return { pass: verdict.text.includes('PASS'), message: verdict.text };
      });
      hooks.report.tap('test:inline', (event) => {
        if (event.type === 'result') results.push(event as unknown as CaseResult);
      });
    },
  };
  const plan: RunPlan = {
    input: { input: file, cwd: dir },
    runs: options.runs ?? 1,
    parallel: options.parallel ?? 1,
    failFast: false,
    env: {},
    verbose: false,
  };
  const kernel = createKernel({
    plugins: [inline, cassettesPlugin({ ...options.cassettes, cwd: dir }), usagePlugin(options.usage)],
  });
  const outcome = await kernel.run(plan);
  return { results, summary: outcome.summary };
}

function toCases(file: string, cases: { id: string; text: string; judge?: boolean }[]): TestCase[] {
  return cases.map((c, i) => ({
    id: c.id,
    kind: 'agent',
    input: c.text,
    messages: [{ role: 'user', content: c.text }],
    source: { file, line: i + 1 },
    ...(c.judge ? { assert: [{ type: 'judge' } as Assertion] } : {}),
  }));
}
