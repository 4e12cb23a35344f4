import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { errorMessage } from '@agentest/kernel/errors';

/**
 * Serves a call's `host` functions over a MessageChannel: the sandbox posts `{id, name, args}`, the
 * main thread runs the function and replies `{id, ok, value | error}`. Returns the worker's end.
 */
export function openHostChannel(host: Record<string, (...args: any[]) => Promise<unknown>>): {
  port: MessagePort;
  names: string[];
  close(): void;
} {
  const { port1, port2 } = new MessageChannel();
  port1.on('message', async ({ id, name, args }: { id: number; name: string; args: unknown[] }) => {
    let reply: { id: number; ok: boolean; value?: unknown; error?: string };
    try {
      reply = { id, ok: true, value: await host[name](...args) };
    } catch (error) {
      reply = { id, ok: false, error: errorMessage(error) };
    }
    try {
      port1.postMessage(reply);
    } catch (error) {
      port1.postMessage({
        id,
        ok: false,
        error: `__host.${name} returned a value that cannot be sent to the sandbox: ${errorMessage(error)}`,
      });
    }
  });
  return { port: port2, names: Object.keys(host), close: () => port1.close() };
}
