import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { normalizeFault } from './faults.js';
import { FakeLlmHandler } from './handler.js';
import { openaiError } from './openai-format.js';
import { sendJson } from './respond.js';
import type { FakeLlm, FakeLlmOptions } from './types.js';

/**
 * Starts a real HTTP server on 127.0.0.1 that answers like OpenAI's chat completions and Anthropic's
 * messages APIs, following a script of replies and faults. Resolves once it is listening.
 */
export async function startFakeLlm(options: FakeLlmOptions = {}): Promise<FakeLlm> {
  const handler = new FakeLlmHandler(options);
  const server = createServer((req, res) => {
    handler.handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        sendJson(res, 500, openaiError(500, 'server_error', `fake-llm internal error: ${(error as Error).message}`));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  let closed = false;
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    requests: handler.requests,
    setScript: (script) => handler.planner.setScript(script),
    queueFaults: (...faults) => handler.planner.enqueue(faults.map((f) => (f === null ? null : normalizeFault(f)))),
    close: async () => {
      if (closed) return;
      closed = true;
      handler.stop();
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await done;
    },
  };
}
