import vm from 'node:vm';
import type { MessagePort } from 'node:worker_threads';
import { formatArgs } from './describe.js';
import type { YaoRuntime } from './yao-runtime.js';

/** Thrown by the sandbox's `process.exit()`: a script may end its test, never agentest. */
export class ProcessExit {
  constructor(readonly code: unknown) {}
}

export interface HostChannel {
  names: string[];
  port: MessagePort;
}

type Handle = ReturnType<typeof setTimeout> | ReturnType<typeof setImmediate>;

/**
 * A fresh `vm` context for one call. Everything in it is created for this call only, so nothing a
 * script changes is seen by the next one. Timers are tracked and cleared when the call ends, and a
 * throw inside a timer is blamed on this call instead of killing the worker (or a later test).
 * `node:vm` is not a security boundary; the worker thread and its resource limits are the containment.
 */
export class Sandbox {
  readonly context: vm.Context;
  /** The first error raised outside the call's own stack (timer, microtask, unhandled rejection). */
  asyncError?: { error: unknown; where: string };
  private readonly timers = new Set<Handle>();
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void }>();
  private notifyAsyncError?: () => void;
  private nextCall = 0;

  /**
   * `runtime` adds Yao's globals (`Process`, `log`, …); `parent` is the sandbox whose `Process()` call
   * created this one: errors raised outside the call's stack are blamed on the parent's call.
   */
  constructor(
    private readonly logs: string[],
    private readonly host?: HostChannel,
    private readonly runtime?: YaoRuntime,
    private readonly parent?: Sandbox,
  ) {
    this.context = vm.createContext(this.globals(), {
      codeGeneration: { strings: false, wasm: false },
      name: 'agentest-sandbox',
    });
    host?.port.on('message', (reply: { id: number; ok: boolean; value?: unknown; error?: string }) => {
      const call = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (reply.ok) call?.resolve(reply.value);
      else call?.reject(new Error(reply.error));
    });
  }

  /** Records an error raised outside the call's stack; only the first one counts. */
  fail(error: unknown, where: string): void {
    if (this.parent) return this.parent.fail(error, where);
    this.asyncError ??= { error, where };
    this.notifyAsyncError?.();
  }

  /** Resolves when an async error is recorded, so a pending call can stop waiting. */
  whenAsyncError(): Promise<void> {
    if (this.asyncError) return Promise.resolve();
    return new Promise((resolve) => (this.notifyAsyncError = resolve));
  }

  dispose(): void {
    for (const handle of this.timers) {
      clearTimeout(handle as ReturnType<typeof setTimeout>);
      clearImmediate(handle as ReturnType<typeof setImmediate>);
    }
    this.timers.clear();
    for (const call of this.pending.values()) call.reject(new Error('the call ended before the host replied'));
    this.pending.clear();
    this.host?.port.close();
  }

  private guard(callback: unknown, args: unknown[], where: string): void {
    try {
      const result = (callback as (...a: unknown[]) => unknown)(...args);
      if (result && typeof (result as PromiseLike<unknown>).then === 'function') {
        (result as PromiseLike<unknown>).then(undefined, (error) => this.fail(error, where));
      }
    } catch (error) {
      this.fail(error, where);
    }
  }

  private globals(): Record<string, unknown> {
    const logs = this.logs;
    const line =
      (level: string) =>
      (...args: unknown[]) =>
        void logs.push(level ? `${level}: ${formatArgs(args)}` : formatArgs(args));
    const checkCallback = (callback: unknown) => {
      if (typeof callback !== 'function') throw new TypeError('timer callback must be a function');
    };
    const timers = this.timers;
    const clear = (handle: unknown) => {
      timers.delete(handle as Handle);
      clearTimeout(handle as ReturnType<typeof setTimeout>);
      clearImmediate(handle as ReturnType<typeof setImmediate>);
    };
    return {
      console: {
        log: line(''),
        info: line(''),
        debug: line('DEBUG'),
        warn: line('WARN'),
        error: line('ERROR'),
        trace: line('TRACE'),
      },
      setTimeout: (callback: unknown, ms?: number, ...args: unknown[]) => {
        checkCallback(callback);
        const handle = setTimeout(() => {
          timers.delete(handle);
          this.guard(callback, args, 'uncaught exception in a timer');
        }, ms);
        timers.add(handle);
        return handle;
      },
      setInterval: (callback: unknown, ms?: number, ...args: unknown[]) => {
        checkCallback(callback);
        const handle = setInterval(() => this.guard(callback, args, 'uncaught exception in an interval'), ms);
        timers.add(handle);
        return handle;
      },
      setImmediate: (callback: unknown, ...args: unknown[]) => {
        checkCallback(callback);
        const handle = setImmediate(() => {
          timers.delete(handle);
          this.guard(callback, args, 'uncaught exception in setImmediate');
        });
        timers.add(handle);
        return handle;
      },
      clearTimeout: clear,
      clearInterval: clear,
      clearImmediate: clear,
      queueMicrotask: (callback: unknown) => {
        checkCallback(callback);
        queueMicrotask(() => this.guard(callback, [], 'uncaught exception in a microtask'));
      },
      structuredClone,
      TextEncoder,
      TextDecoder,
      URL,
      URLSearchParams,
      AbortController,
      AbortSignal,
      fetch,
      Headers,
      Request,
      Response,
      atob,
      btoa,
      performance: { now: () => performance.now() },
      process: {
        env: { ...process.env },
        argv: [],
        platform: process.platform,
        version: process.version,
        exit: (code?: unknown) => {
          throw new ProcessExit(code ?? 0);
        },
        nextTick: (callback: unknown, ...args: unknown[]) => {
          checkCallback(callback);
          queueMicrotask(() => this.guard(callback, args, 'uncaught exception in process.nextTick'));
        },
      },
      __host: this.hostFunctions(),
      ...this.runtime?.globals(this),
    };
  }

  /** `__host.<name>(...args)`: async calls to functions on the main thread, over the task's MessagePort. */
  private hostFunctions(): Record<string, (...args: unknown[]) => Promise<unknown>> {
    const functions: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
    for (const name of this.host?.names ?? []) {
      functions[name] = (...args: unknown[]) =>
        new Promise((resolve, reject) => {
          const id = this.nextCall++;
          try {
            this.host!.port.postMessage({ id, name, args });
            this.pending.set(id, { resolve, reject });
          } catch (error) {
            reject(new TypeError(`__host.${name}: arguments must be plain data (${(error as Error).message})`));
          }
        });
    }
    return Object.freeze(functions);
  }
}
