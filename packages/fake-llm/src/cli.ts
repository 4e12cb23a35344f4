#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { loadScriptFile } from './script-file.js';
import { startFakeLlm } from './server.js';
import type { FakeLlmScript } from './types.js';

const HELP = `Usage: fake-llm [--port 8787] [--host 127.0.0.1] [--script replies.json] [--latency ms] [--echo] [--api-key key]

A local server speaking the OpenAI (POST /v1/chat/completions) and Anthropic (POST /v1/messages) APIs.
The script is JSON: {"rules": [{"match": "weather", "reply": "Sunny"}], "default": "OK", "latencyMs": 50,
"faults": [{"every": 3, "fault": {"type": "status", "status": 429, "retryAfter": 1}}]}.`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '8787' },
      host: { type: 'string', default: '127.0.0.1' },
      script: { type: 'string' },
      latency: { type: 'string' },
      echo: { type: 'boolean', default: false },
      'api-key': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return void console.log(HELP);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0–65535, got "${values.port}"`);
  const script: FakeLlmScript = values.script ? await loadScriptFile(values.script) : {};
  if (values.latency !== undefined) {
    const latency = Number(values.latency);
    if (!Number.isFinite(latency) || latency < 0)
      throw new Error(`--latency must be milliseconds ≥ 0, got "${values.latency}"`);
    script.latencyMs = latency;
  }
  if (values.echo) script.echo = true;
  const server = await startFakeLlm({ ...script, port, host: values.host, apiKey: values['api-key'] });
  console.log(
    `fake-llm listening on ${server.url} (OpenAI base URL ${server.url}/v1, Anthropic base URL ${server.url})`,
  );
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`fake-llm: ${(error as Error).message.replace(/^fake-llm: /, '')}`);
  process.exit(2);
});
