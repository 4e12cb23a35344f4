import vm from 'node:vm';
import type { MessagePort } from 'node:worker_threads';
import {
  consoleGlobal,
  platformGlobals,
  processGlobal,
  timerGlobals,
  type Guard,
  type TimerHandle,
} from './sandbox-globals.js';

export interface HostChannel {
  names: string[];
  port: MessagePort;
}

/**
 * Globals a runtime adds to every sandbox it serves (Yao's `Process`, `log`, …). `owner` is the sandbox
 * being built: a runtime that loads more code for it (Yao's `Process()`) blames that code's errors on it.
 */
export interface SandboxRuntime {
  globals(owner: Sandbox): Record<string, unknown>;
}

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
  private readonly timers = new Set<TimerHandle>();
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
    private readonly runtime?: SandboxRuntime,
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
    const guard: Guard = (callback, args, where) => this.guard(callback, args, where);
    return {
      console: consoleGlobal(this.logs),
      ...timerGlobals(this.timers, guard),
      ...platformGlobals(),
      process: processGlobal(guard),
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
