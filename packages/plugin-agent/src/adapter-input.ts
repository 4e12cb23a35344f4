import type { AgentCallOptions, Message, TestCase } from '@agentest/kernel';
import { lastUserText } from './message-text.js';

/**
 * What an adapter's `call(input)` receives: every field of the case. agentest-kit sends only
 * `{id, case_id, query, expected_keywords}`, so its README's adapters never see `intent`; here they
 * see it, along with `difficulty`, `notes`, the case's metadata and anything else it carries.
 */
export interface AdapterInput {
  id: string;
  /** Same as `id`: agentest-kit's name for it. */
  case_id: string;
  /** The text of the last user message (or the `query` a `ctx.run({query})` call passed). */
  query: string;
  messages: Message[];
  expected?: unknown;
  /** Always an array, as in agentest-kit; empty when the case lists none. */
  expected_keywords: string[];
  intent?: string;
  expected_behavior?: string;
  difficulty?: string;
  notes?: string;
  /**
   * Fires at the case's timeout or on interruption; pass it to `fetch` so a timed-out call stops.
   * Not enumerable, so spreading or serialising the input leaves it out.
   */
  readonly signal?: AbortSignal;
  [key: string]: unknown;
}

/** Case options that steer the call itself (Yao's `options`), not data for the adapter. */
const CALL_OPTIONS = new Set(['connector', 'skip', 'disable_global_prompts', 'search', 'mode', 'metadata']);

/**
 * Builds the adapter input for one call. Later sources win: the defaults, the case's `metadata`,
 * its `options` other than Yao's call options, the kit fields of an agent case's `data`
 * (`expected_keywords`, `intent`, `difficulty`, `notes`, …), the case's identity and messages, and
 * last the `extra` fields of a `ctx.run({query, sessionId, …})` call, exactly as passed.
 */
export function adapterInput(messages: Message[], call: AgentCallOptions = {}): AdapterInput {
  const testCase = asTestCase(call.testCase);
  const id = testCase?.id ?? '';
  return {
    expected_keywords: [],
    ...testCase?.metadata,
    ...dataOptions(call.options ?? testCase?.options),
    ...kitData(testCase),
    id,
    case_id: id,
    query: lastUserText(messages),
    messages,
    ...(testCase?.expected !== undefined ? { expected: testCase.expected } : {}),
    ...call.extra,
  };
}

function dataOptions(options: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!options) return undefined;
  let out: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(options)) {
    if (CALL_OPTIONS.has(key)) continue;
    (out ??= {})[key] = value;
  }
  return out;
}

/**
 * The kit fields of a data-driven case. Spec cases (test() files) keep their own bookkeeping in
 * `data`; their adapter gets what `ctx.run` passes instead, as in agentest-kit.
 */
function kitData(testCase: Partial<TestCase> | undefined): Record<string, unknown> | undefined {
  if (!testCase || testCase.kind === 'spec') return undefined;
  const data = testCase.data;
  return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
}

function asTestCase(value: unknown): Partial<TestCase> | undefined {
  return value && typeof value === 'object' ? (value as Partial<TestCase>) : undefined;
}
