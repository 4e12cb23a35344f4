import { Agent, request } from 'node:http';
import OpenAI from 'openai';
import { createChatClient } from '@agentest/connectors';
import { nodeHttpFetch } from '../packages/connectors/src/node-http-fetch.js';
import { reuseRequestHeaders } from '../packages/connectors/src/sdk-headers.js';
import { threadTimes, usedBetween } from './_thread-times.js';

/**
 * The main thread's CPU time per model call, one layer of the `openai` connector at a time, against
 * a server at `url`: Node's HTTP client alone, then the connector's fetch over it, then the OpenAI
 * SDK over that fetch, then the connector's whole `chat()` (cassette boundary, retries, concurrency
 * limit, reply reading). Each difference is what that layer adds to every call. `parallel` calls are
 * kept in flight, as the runner's lanes keep them; each layer's figure is its least over `rounds` rounds.
 */
export async function callLayers(
  url: string,
  calls: number,
  parallel: number,
  rounds = 3,
): Promise<{ layer: string; cpuMs: number }[]> {
  const messages = Array.from({ length: 6 }, (_, i) => ({
    role: i % 2 ? ('assistant' as const) : ('user' as const),
    content: `Message number ${i + 1} of the conversation so far`,
  }));
  const body = JSON.stringify({ model: 'fake-model', messages });
  const endpoint = `${url}/v1/chat/completions`;
  const agent = new Agent({ keepAlive: true });
  const fetch = nodeHttpFetch();
  // Built as the connector builds its client (no key: no Authorization header; its request headers built once),
  // so `chat()` adds only the connector.
  const sdk = new OpenAI({
    apiKey: 'no-key',
    baseURL: `${url}/v1`,
    organization: null,
    project: null,
    maxRetries: 0,
    logLevel: 'off',
    fetch,
    defaultHeaders: { Authorization: null },
  });
  reuseRequestHeaders(sdk);
  const client = createChatClient('bench-layers', {
    type: 'openai',
    options: { host: url, model: 'fake-model', concurrency: parallel },
  });
  const layers: [string, () => Promise<unknown>][] = [
    ['Node’s HTTP client (node:http, keep-alive)', () => plainPost(endpoint, body, agent)],
    ['+ the connector’s fetch over it', async () => (await fetch(endpoint, { method: 'POST', body })).json()],
    ['+ the OpenAI SDK over that fetch', () => sdk.chat.completions.create({ model: 'fake-model', messages })],
    ['+ the connector’s chat() (the whole connector)', () => client.chat({ messages }, new AbortController().signal)],
  ];
  // Rounds go through every layer in turn and each layer keeps its least CPU: other load on the machine
  // only ever adds, and it changes between one layer's turn and the next.
  const least = layers.map(() => Infinity);
  for (const [, call] of layers) await keepInFlight(call, parallel * 4, parallel);
  for (let round = 0; round < rounds; round++) {
    for (const [i, [, call]] of layers.entries()) {
      const before = threadTimes();
      await keepInFlight(call, calls, parallel);
      least[i] = Math.min(least[i]!, usedBetween(before, threadTimes(), [process.pid]).cpuMs / calls);
    }
  }
  const figures = layers.map(([layer], i) => ({ layer, cpuMs: least[i]! }));
  agent.destroy();
  return figures;
}

async function keepInFlight(call: () => Promise<unknown>, calls: number, parallel: number): Promise<void> {
  let started = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (started++ < calls) await call();
    }),
  );
}

function plainPost(url: string, body: string, agent: Agent): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': body.length } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The layers as a Markdown table, each with what it adds to the one below it. */
export function formatCallLayers(layers: { layer: string; cpuMs: number }[], calls: number, parallel: number): string {
  if (layers.some((l) => Number.isNaN(l.cpuMs) || l.cpuMs === 0)) return '';
  return [
    '',
    `Where the main thread's CPU per call goes in the connector, layer by layer (${calls} calls, ${parallel} in flight, against the fake server; each layer's least main-thread CPU per call over 3 rounds that take the layers in turn, and what each layer adds):`,
    '',
    '| layer | CPU per call | added |',
    '|---|---|---|',
    ...layers.map(
      (l, i) =>
        `| ${l.layer} | ${l.cpuMs.toFixed(3)} ms | ${i ? `${(l.cpuMs - layers[i - 1]!.cpuMs).toFixed(3)} ms` : '–'} |`,
    ),
  ].join('\n');
}
