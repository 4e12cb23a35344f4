import { formatArgs } from './describe.js';

/** Thrown by the sandbox's `process.exit()`: a script may end its test, never agentest. */
export class ProcessExit {
  constructor(readonly code: unknown) {}
}

export type TimerHandle = ReturnType<typeof setTimeout> | ReturnType<typeof setImmediate>;

/** Runs a callback that fires outside the call's own stack, blaming what it throws on the call (`where` says how). */
export type Guard = (callback: unknown, args: unknown[], where: string) => void;

/** `console.*` writes to the call's logs, with the level as a prefix where Yao prints one. */
export function consoleGlobal(logs: string[]): Record<string, (...args: unknown[]) => void> {
  const line =
    (level: string) =>
    (...args: unknown[]) =>
      void logs.push(level ? `${level}: ${formatArgs(args)}` : formatArgs(args));
  return {
    log: line(''),
    info: line(''),
    debug: line('DEBUG'),
    warn: line('WARN'),
    error: line('ERROR'),
    trace: line('TRACE'),
  };
}

/** Timers the sandbox tracks in `timers`, so that they are all cleared when the call ends. */
export function timerGlobals(timers: Set<TimerHandle>, guard: Guard): Record<string, unknown> {
  const clear = (handle: unknown) => {
    timers.delete(handle as TimerHandle);
    clearTimeout(handle as ReturnType<typeof setTimeout>);
    clearImmediate(handle as ReturnType<typeof setImmediate>);
  };
  return {
    setTimeout: (callback: unknown, ms?: number, ...args: unknown[]) => {
      checkCallback(callback);
      const handle = setTimeout(() => {
        timers.delete(handle);
        guard(callback, args, 'uncaught exception in a timer');
      }, ms);
      timers.add(handle);
      return handle;
    },
    setInterval: (callback: unknown, ms?: number, ...args: unknown[]) => {
      checkCallback(callback);
      const handle = setInterval(() => guard(callback, args, 'uncaught exception in an interval'), ms);
      timers.add(handle);
      return handle;
    },
    setImmediate: (callback: unknown, ...args: unknown[]) => {
      checkCallback(callback);
      const handle = setImmediate(() => {
        timers.delete(handle);
        guard(callback, args, 'uncaught exception in setImmediate');
      });
      timers.add(handle);
      return handle;
    },
    clearTimeout: clear,
    clearInterval: clear,
    clearImmediate: clear,
    queueMicrotask: (callback: unknown) => {
      checkCallback(callback);
      queueMicrotask(() => guard(callback, [], 'uncaught exception in a microtask'));
    },
  };
}

/** A `process` of the sandbox's own: a copy of the environment, and an `exit()` that only ends the test. */
export function processGlobal(guard: Guard): Record<string, unknown> {
  return {
    env: { ...process.env },
    argv: [],
    platform: process.platform,
    version: process.version,
    exit: (code?: unknown) => {
      throw new ProcessExit(code ?? 0);
    },
    nextTick: (callback: unknown, ...args: unknown[]) => {
      checkCallback(callback);
      queueMicrotask(() => guard(callback, args, 'uncaught exception in process.nextTick'));
    },
  };
}

/** The web platform's stateless classes and functions; `performance` is a fresh object per call. */
export function platformGlobals(): Record<string, unknown> {
  return {
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
  };
}

function checkCallback(callback: unknown): void {
  if (typeof callback !== 'function') throw new TypeError('timer callback must be a function');
}
