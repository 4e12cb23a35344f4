import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createChatClient } from '../src/index.js';
import { nodeHttpFetch } from '../src/node-http-fetch.js';
import { anthropicConfig, never, openaiConfig, user, withFake } from './helpers.js';

/**
 * A reply past `max_reply_bytes` fails its call with a clear, non-retryable error while it is being
 * read, instead of being held in memory whole.
 */
describe('max_reply_bytes', () => {
  for (const [type, config] of [
    ['openai', openaiConfig],
    ['anthropic', anthropicConfig],
  ] as const) {
    for (const stream of [false, true]) {
      it(`${type}${stream ? ', streaming' : ''}: a reply over the cap is "reply too large", not retried`, async () => {
        await withFake({ rules: [{ match: '^huge', fault: { type: 'huge', bytes: 3_000_000 } }] }, async (llm) => {
          const client = createChatClient('big', config(llm, { max_reply_bytes: 100_000, stream, retries: 3 }));
          await assert.rejects(client.chat({ messages: user('huge please') }, never()), (error: Error) => {
            assert.match(
              error.message,
              /^\w+ connector "big": reply too large: more than 97\.7 KB, so reading stopped; raise max_reply_bytes in the connector/,
            );
            return true;
          });
          assert.equal(llm.requests.length, 1, 'no retry: the same request gets the same reply');
          const fine = await client.chat({ messages: user('hello') }, never());
          assert.equal(typeof fine.text, 'string', 'the connector still works after a refused reply');
        });
      });
    }
  }

  it('defaults to 10 MB: a reply under it passes, one over it is refused', async () => {
    await withFake(
      {
        rules: [
          { match: '^nine', fault: { type: 'huge', bytes: 9_000_000 } },
          { match: '^eleven', fault: { type: 'huge', bytes: 11 * 1024 * 1024 } },
        ],
      },
      async (llm) => {
        const client = createChatClient('default', openaiConfig(llm));
        assert.equal((await client.chat({ messages: user('nine') }, never())).text.length, 9_000_000);
        await assert.rejects(
          client.chat({ messages: user('eleven') }, never()),
          /connector "default": reply too large: more than 10 MB/,
        );
      },
    );
  });

  it('stops while reading a body without Content-Length, which here never ends', async () => {
    let sent = 0;
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) sent += chunk.length;
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const fetch = nodeHttpFetch(undefined, { maxBytes: 1_000_000, tooLarge: (max) => new Error(`over ${max}`) });
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      await assert.rejects(response.text(), /^Error: over 1000000$/);
      assert.ok(sent < 50_000_000, `the reader stopped early (server sent ${sent} bytes)`);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
