import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createChatClient } from '../src/index.js';
import { Semaphore } from '../src/semaphore.js';
import { never, openaiConfig, user, withFake } from './helpers.js';

/** Node 20 has no Promise.withResolvers. */
function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('concurrency limit', () => {
  it('a semaphore never lets more than its limit run, and serves waiters in order', async () => {
    const semaphore = new Semaphore(2);
    const order: number[] = [];
    let peak = 0;
    const gates = Array.from({ length: 5 }, () => deferred());
    const runs = gates.map((gate, i) =>
      semaphore.use(async () => {
        order.push(i);
        peak = Math.max(peak, semaphore.inFlight);
        await gate.promise;
      }, never()),
    );
    for (const gate of gates) {
      await new Promise((r) => setImmediate(r));
      gate.resolve();
    }
    await Promise.all(runs);
    assert.equal(peak, 2);
    assert.deepEqual(order, [0, 1, 2, 3, 4]);
  });

  it('an aborted waiter leaves the queue without taking a slot', async () => {
    const semaphore = new Semaphore(1);
    const hold = deferred();
    const first = semaphore.use(() => hold.promise, never());
    const controller = new AbortController();
    const waiting = semaphore.use(async () => 'ran', controller.signal);
    controller.abort(new Error('timed out waiting'));
    await assert.rejects(waiting, /timed out waiting/);
    hold.resolve();
    await first;
    assert.equal(await semaphore.use(async () => 'next', never()), 'next');
    assert.equal(semaphore.inFlight, 0);
  });

  it('is shared by every client of one connector id', async () => {
    await withFake({ latencyMs: 40 }, async (llm) => {
      const a = createChatClient('shared', openaiConfig(llm, { concurrency: 2 }), {});
      const b = createChatClient('shared', openaiConfig(llm, { concurrency: 2 }), {});
      const started = performance.now();
      await Promise.all([a, b, a, b, a, b].map((client) => client.chat({ messages: user('hi') }, never())));
      // Six calls, two at a time, 40 ms each: at least three rounds.
      assert.ok(performance.now() - started >= 115, `took ${performance.now() - started}ms`);
      const arrivals = llm.requests.map((r) => r.receivedAt).sort((x, y) => x - y);
      assert.ok(arrivals[2] - arrivals[0] >= 35, 'the third call waited for a free slot');
    });
  });
});
