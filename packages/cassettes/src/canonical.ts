import { createHash } from 'node:crypto';

/**
 * Request fields that change between identical calls without changing the answer asked for: how the
 * reply is delivered (`stream`, `stream_options`) and per-caller bookkeeping. They are left out of
 * the key, so a suite recorded with streaming replays without it and the other way round.
 */
const VOLATILE = new Set(['stream', 'stream_options', 'user', 'metadata', 'store', 'service_tier']);

/** The request as keyed and stored: the wire body without volatile fields. Headers never get here. */
export function canonicalRequest(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) if (!VOLATILE.has(name) && value !== undefined) out[name] = value;
  return out;
}

/** JSON with object keys sorted at every depth, so equal requests hash alike whatever their key order. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : item,
  );
}

/** A short sha256 of the canonical request: enough to tell requests apart, short enough to read. */
export function requestHash(request: unknown): string {
  return createHash('sha256').update(stableJson(request)).digest('hex').slice(0, 16);
}
