import type { ChatClientFactory } from './chat-client.js';
import type { ScriptPoolOptions } from '@agentest/plugin-script';
import type { HookPool } from './hook-runner.js';

/**
 * The connectors (with the OpenAI and Anthropic SDKs) and the script sandbox (a worker pool) are
 * loaded on first use, so a hook-only assistant never loads an SDK and a prompt-only one never
 * starts a worker.
 */
export async function loadChatClientFactory(): Promise<ChatClientFactory> {
  const { createChatClient } = await import('@agentest/connectors');
  return (id, config, env) => createChatClient(id, config, env);
}

export async function acquireHookPool(
  sandbox: ScriptPoolOptions = {},
): Promise<{ pool: HookPool; release(): void | Promise<void> }> {
  const { acquireScriptPool } = await import('@agentest/plugin-script/sandbox');
  return acquireScriptPool(sandbox);
}
