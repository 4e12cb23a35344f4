import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after } from 'node:test';
import {
  createHooks,
  type Agent,
  type AgentestPlugin,
  type AgentRef,
  type AgentReply,
  type Assertion,
  type Execution,
  type Message,
  type RunPlan,
  type TestCase,
} from '@agentest/kernel';
import { buildTestContext } from '@agentest/plugin-agent';
import yaoResolver, { type YaoResolverOptions } from '../src/index.js';

/** Writes a file tree under a fresh temporary directory (removed after the test file) and returns its path. */
export function writeTree(files: Record<string, string | object>): string {
  const root = mkdtempSync(join(tmpdir(), 'agentest-yao-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  addFiles(root, files);
  return root;
}

export function addFiles(root: string, files: Record<string, string | object>): void {
  for (const [path, content] of Object.entries(files)) {
    const file = join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
}

export function plan(cwd: string): RunPlan {
  return { input: { input: 'inline', cwd }, runs: 1, parallel: 1, failFast: false, env: {}, verbose: false };
}

/**
 * The plugin applied to a fresh hook block, as the kernel would: `resolve` fires every resolve tap
 * (including the late "not found" one), `close` fires teardown. Closed automatically after the file.
 */
export function harness(options: YaoResolverOptions = {}) {
  const hooks = createHooks();
  yaoResolver(options).apply({
    hooks: hooks as never,
    reportError: (e) => {
      throw e;
    },
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await hooks.teardown.promise();
  };
  after(close);
  return {
    resolve: (ref: AgentRef, cwd: string) => hooks.resolve.promise(ref, { plan: plan(cwd) }),
    close,
  };
}

export function context(metadata: Record<string, unknown> = {}) {
  const ctx = buildTestContext({ flags: {}, testCase: {}, chatId: 'test-T1', assistantId: '' });
  ctx.metadata = metadata;
  return ctx;
}

export function user(text: string): Message[] {
  return [{ role: 'user', content: text }];
}

export async function ask(
  agent: Agent | undefined,
  text: string,
  options: Record<string, unknown> = {},
  metadata: Record<string, unknown> = {},
): Promise<AgentReply> {
  if (!agent) throw new Error('no agent resolved');
  return agent.run(user(text), context(metadata), new AbortController().signal, { options });
}

/** An OpenAI connector pointing at a fake server; the key comes from the environment. */
export function openaiConnector(url: string, extra: Record<string, unknown> = {}) {
  return { type: 'openai', options: { host: url, model: 'fake-model', key: '$ENV.FAKE_KEY', ...extra } };
}

/**
 * Runs one case per input through a real kernel with the agent executor and the built-in
 * assertions, as `agentest test` does, against the assistant `agentId`; returns each case's
 * execution by input.
 */
export async function runCases(
  root: string,
  agentId: string,
  inputs: Array<string | { input: string; assert: Assertion[] }>,
  options: YaoResolverOptions = {},
): Promise<Map<string, Execution>> {
  const { createKernel } = await import('@agentest/kernel');
  const { executeAgentCase } = await import('@agentest/plugin-agent');
  const { default: assertions } = await import('@agentest/plugin-assert');
  const cases: TestCase[] = inputs.map((entry, i) => {
    const { input, assert } = typeof entry === 'string' ? { input: entry, assert: undefined } : entry;
    return {
      id: input,
      kind: 'agent',
      input,
      messages: user(input),
      source: { file: 'inline.jsonl', line: i + 1 },
      ...(assert ? { assert } : {}),
    };
  });
  const inline: AgentestPlugin = {
    name: 'test:inline',
    apply({ hooks }) {
      hooks.load.tapPromise('test:inline', async () => ({ name: 'inline', needsAgent: true, cases: () => cases }));
      hooks.execute.for('agent').tapPromise('test:inline', executeAgentCase);
    },
  };
  const runs = new Map<string, Execution>();
  const collect: AgentestPlugin = {
    name: 'test:collect',
    apply: ({ hooks }) =>
      hooks.report.tap('test:collect', (e) => void (e.type === 'run_result' && runs.set(e.id, e.execution))),
  };
  const kernel = createKernel({ plugins: [inline, assertions(), yaoResolver(options), collect] });
  await kernel.run({ ...plan(root), agent: { id: agentId } });
  return runs;
}
