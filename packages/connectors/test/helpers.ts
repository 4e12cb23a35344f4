import type { Message } from '@agentest/kernel';
import type { ConnectorConfig } from '../src/types.js';
import { startFakeLlm, type FakeLlm, type FakeLlmOptions } from '@agentest/fake-llm';

export const user = (text: string): Message[] => [{ role: 'user', content: text }];

export const never = (): AbortSignal => new AbortController().signal;

/**
 * A wait that ends by then did not sit out a long delay it should have skipped: far above what the
 * call takes even on a busy machine, far below the delay. Only a hang catcher, never a speed budget.
 */
export const HANG_MS = 30_000;

/** Starts a fake server for one test and closes it afterwards, whatever happens. */
export async function withFake<T>(options: FakeLlmOptions, body: (llm: FakeLlm) => Promise<T>): Promise<T> {
  const llm = await startFakeLlm(options);
  try {
    return await body(llm);
  } finally {
    await llm.close();
  }
}

/** An openai connector pointed at the fake server; fast backoff so retry tests take milliseconds. */
export function openaiConfig(llm: FakeLlm, options: Record<string, unknown> = {}): ConnectorConfig {
  return { type: 'openai', options: { host: llm.url, model: 'gpt-fake', backoff_ms: 1, ...options } };
}

export function anthropicConfig(llm: FakeLlm, options: Record<string, unknown> = {}): ConnectorConfig {
  return {
    type: 'anthropic',
    options: { host: llm.url, model: 'claude-fake', key: 'sk-ant-test', backoff_ms: 1, ...options },
  };
}
