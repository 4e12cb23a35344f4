import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { startFakeLlm, type FakeLlmOptions } from '@agentest/fake-llm';

/** What the fake server answered: requests served, and how many of them were 429s. */
export interface ServerStats {
  requests: number;
  rateLimited: number;
}

/**
 * The fake server runs in a worker thread, on its own event loop: in the same thread its HTTP work
 * would compete with the client's and the figures would measure both. This file is the worker too.
 */
export class FakeServerThread {
  private constructor(
    private readonly worker: Worker,
    readonly url: string,
  ) {}

  static async start(options: FakeLlmOptions): Promise<FakeServerThread> {
    // Node 20 workers do not inherit `--import tsx`, so the worker registers tsx before loading this file;
    // it resolves the packages as this thread does (the sources, or dist/ as the benches run them).
    const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); })`;
    const worker = new Worker(boot, {
      eval: true,
      execArgv: process.execArgv.filter((arg) => arg.startsWith('--conditions')),
      workerData: { fakeLlm: options },
    });
    const url = await new Promise<string>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    return new FakeServerThread(worker, url);
  }

  /**
   * What the server answered since it started or since the last `take()`; the requests it recorded
   * are let go. A server kept for several runs (warm, as a real one is) reports each run's own figures.
   */
  take(): Promise<ServerStats> {
    return this.ask('take');
  }

  async stop(): Promise<ServerStats> {
    const result = await this.ask('stop');
    await this.worker.terminate();
    return result;
  }

  private ask(message: 'take' | 'stop'): Promise<ServerStats> {
    const stats = new Promise<ServerStats>((resolve) => this.worker.once('message', resolve));
    this.worker.postMessage(message);
    return stats;
  }
}

async function serveInWorker(options: FakeLlmOptions): Promise<void> {
  const llm = await startFakeLlm(options);
  parentPort!.postMessage(llm.url);
  parentPort!.on('message', async (message: 'take' | 'stop') => {
    const stats: ServerStats = {
      requests: llm.requests.length,
      rateLimited: llm.requests.filter((r) => r.fault === 'status:429').length,
    };
    llm.requests.length = 0;
    if (message === 'stop') await llm.close();
    parentPort!.postMessage(stats);
  });
}

if (!isMainThread && (workerData as { fakeLlm?: FakeLlmOptions } | null)?.fakeLlm)
  await serveInWorker((workerData as { fakeLlm: FakeLlmOptions }).fakeLlm);
