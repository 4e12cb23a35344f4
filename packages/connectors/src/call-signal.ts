/**
 * Where a connector puts its call's own signal in the request options it gives the SDK
 * (`fetchOptions`, which the SDK hands on as they are to the connector's fetch, node-http-fetch.ts).
 * The SDK is given no signal of the caller's: it adds an abort listener to the one it gets and never
 * removes it, so a run making many calls on one signal (a simulated conversation, judge samples)
 * would pile them up, and a signal of its own per call to spare the caller's (a controller, two
 * listeners) costs each call more than this. The SDK's own signal, which its timeout aborts, still
 * comes as `signal`; the call ends when either is aborted, and the fetch removes its listeners when
 * it ends.
 */
export const CALL_SIGNAL = Symbol('agentest.callSignal');

export type CallInit = RequestInit & { [CALL_SIGNAL]?: AbortSignal };

/** The SDK request option (`fetchOptions`) that carries the call's signal to the connector's fetch. */
export function callFetchOptions(signal: AbortSignal): CallFetchOptions {
  return { [CALL_SIGNAL]: signal };
}

export interface CallFetchOptions {
  [CALL_SIGNAL]: AbortSignal;
}

/** The options for another fetch, which knows only `signal`: aborted when either signal is. */
export function withCallSignal(
  init: RequestInit | undefined,
  callSignal: AbortSignal | undefined,
): RequestInit | undefined {
  if (!callSignal) return init;
  return { ...init, signal: init?.signal ? AbortSignal.any([init.signal, callSignal]) : callSignal };
}

/** The signals a request ends on: the SDK's (its timeout) and the call's own (see `CALL_SIGNAL`). */
export interface Signals {
  signal: AbortSignal | undefined;
  callSignal: AbortSignal | undefined;
}

export function abortedOf({ signal, callSignal }: Signals): AbortSignal | undefined {
  return signal?.aborted ? signal : callSignal?.aborted ? callSignal : undefined;
}

/** Listeners that remove themselves, so no `{ once }` for EventTarget to read on every call. */
export function listen({ signal, callSignal }: Signals, onAbort: () => void): void {
  signal?.addEventListener('abort', onAbort);
  callSignal?.addEventListener('abort', onAbort);
}

export function unlisten({ signal, callSignal }: Signals, onAbort: () => void): void {
  signal?.removeEventListener('abort', onAbort);
  callSignal?.removeEventListener('abort', onAbort);
}
