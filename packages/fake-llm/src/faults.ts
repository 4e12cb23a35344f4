import type { Fault, FaultSpec } from './types.js';

const NAMED = new Set(['hang', 'malformed', 'cut', 'reset']);

/** Turns the shorthands (`429`, `'hang'`) into full faults, rejecting anything else loudly. */
export function normalizeFault(spec: FaultSpec): Fault {
  if (typeof spec === 'number') {
    if (!Number.isInteger(spec) || spec < 400 || spec > 599)
      throw new TypeError(`fake-llm: fault status must be 400–599, got ${spec}`);
    return { type: 'status', status: spec };
  }
  if (typeof spec === 'string') {
    if (!NAMED.has(spec))
      throw new TypeError(`fake-llm: unknown fault "${spec}" (known: ${[...NAMED].join(', ')}, or a status number)`);
    return { type: spec } as Fault;
  }
  if (spec && typeof spec === 'object' && typeof spec.type === 'string') {
    if (spec.type === 'huge' && !(Number.isInteger(spec.bytes) && spec.bytes > 0))
      throw new TypeError('fake-llm: a huge fault needs a positive integer "bytes"');
    if (spec.type === 'status' && !(Number.isInteger(spec.status) && spec.status >= 400 && spec.status <= 599)) {
      throw new TypeError(`fake-llm: fault status must be 400–599, got ${spec.status}`);
    }
    return spec;
  }
  throw new TypeError(`fake-llm: not a fault: ${JSON.stringify(spec)}`);
}

/** A short label recorded on the request, e.g. `status:429`, `cut`. */
export function describeFault(fault: Fault): string {
  return fault.type === 'status'
    ? `status:${fault.status}`
    : fault.type === 'huge'
      ? `huge:${fault.bytes}`
      : fault.type;
}

/** The `Retry-After` header value: whole seconds as given, or an HTTP date passed through. */
export function retryAfterHeader(value: number | string | undefined): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'number' ? String(value) : value;
}

/** The error type names each API uses for a status, so SDKs classify errors as they would in production. */
export function errorTypeFor(status: number, api: 'openai' | 'anthropic'): string {
  if (api === 'anthropic') {
    if (status === 401) return 'authentication_error';
    if (status === 429) return 'rate_limit_error';
    if (status === 529) return 'overloaded_error';
    if (status >= 500) return 'api_error';
    return 'invalid_request_error';
  }
  if (status === 401) return 'invalid_api_key';
  if (status === 429) return 'rate_limit_exceeded';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}
