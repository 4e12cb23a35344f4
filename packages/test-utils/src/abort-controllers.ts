/**
 * Runs `work` while counting the `AbortController`s made (each makes its `AbortSignal`), for the tests
 * that prove a fast path makes none: one costs microseconds in Node 20, more than a fast case's run.
 */
export async function countAbortControllers(work: () => Promise<unknown>): Promise<number> {
  const Original = globalThis.AbortController;
  let made = 0;
  globalThis.AbortController = class extends Original {
    constructor() {
      super();
      made++;
    }
  };
  try {
    await work();
  } finally {
    globalThis.AbortController = Original;
  }
  return made;
}
