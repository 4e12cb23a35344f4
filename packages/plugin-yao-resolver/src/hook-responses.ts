import type { Message } from '@agentest/kernel';
import { hookShapeError } from './hook-runner.js';
import { readServerUses, type ServerUse } from './mcp-config.js';

/** Another assistant to hand the conversation to (Create or Next `delegate`). */
export interface Delegate {
  agent_id: string;
  messages?: Message[];
  options?: Record<string, unknown>;
}

/** The fields of Yao's `HookCreateResponse` that change a test run; unknown keys are ignored. */
export interface CreateResponse {
  messages?: Message[];
  connector?: string;
  llmOptions: Record<string, unknown>;
  prompt_preset?: string;
  disable_global_prompts?: boolean;
  locale?: string;
  theme?: string;
  route?: string;
  metadata?: Record<string, unknown>;
  delegate?: Delegate;
  /** Replaces package.yao's `mcp.servers` for this call when non-empty. */
  mcp_servers?: ServerUse[];
}

/** Yao's `NextHookResponse`. */
export interface NextResponse {
  data?: unknown;
  delegate?: Delegate;
  metadata?: Record<string, unknown>;
}

const LLM_KEYS = ['temperature', 'max_tokens', 'max_completion_tokens', 'audio'] as const;

/** null/undefined means "no change". */
export function readCreateResponse(value: unknown, file: string): CreateResponse | undefined {
  if (value === null || value === undefined) return undefined;
  const r = record(value, 'Create', file, 'an object {messages, connector, delegate, …} or null');
  const llmOptions: Record<string, unknown> = {};
  for (const key of LLM_KEYS) if (r[key] !== undefined && r[key] !== null) llmOptions[key] = r[key];
  return {
    ...(r.messages !== undefined && r.messages !== null
      ? { messages: messages(r.messages, 'Create', file, 'messages') }
      : {}),
    ...optionalString(r, 'connector', file),
    llmOptions,
    ...optionalString(r, 'prompt_preset', file),
    ...(typeof r.disable_global_prompts === 'boolean' ? { disable_global_prompts: r.disable_global_prompts } : {}),
    ...optionalString(r, 'locale', file),
    ...optionalString(r, 'theme', file),
    ...optionalString(r, 'route', file),
    ...(r.metadata && typeof r.metadata === 'object' ? { metadata: r.metadata as Record<string, unknown> } : {}),
    ...delegate(r.delegate, 'Create', file),
    ...(Array.isArray(r.mcp_servers) && r.mcp_servers.length
      ? { mcp_servers: readServerUses(r.mcp_servers, `the Create hook of ${file}`, '"mcp_servers"') }
      : {}),
  };
}

/** null, `{}` or metadata only give the standard response. */
export function readNextResponse(value: unknown, file: string): NextResponse | undefined {
  if (value === null || value === undefined) return undefined;
  const r = record(value, 'Next', file, 'an object {data, delegate, metadata} or null');
  return {
    ...(r.data !== undefined ? { data: r.data } : {}),
    ...delegate(r.delegate, 'Next', file),
    ...(r.metadata && typeof r.metadata === 'object' ? { metadata: r.metadata as Record<string, unknown> } : {}),
  };
}

/** Yao treats nil, `""`, `{}` and `[]` as "no data": the completion stays the output. */
export function isEmptyData(data: unknown): boolean {
  if (data === null || data === undefined || data === '') return true;
  if (Array.isArray(data)) return data.length === 0;
  return typeof data === 'object' && Object.keys(data).length === 0;
}

function record(value: unknown, hook: string, file: string, expected: string): Record<string, unknown> {
  if (typeof value !== 'object' || Array.isArray(value))
    throw hookShapeError(hook, file, `${describe(value)}; expected ${expected}`);
  return value as Record<string, unknown>;
}

function optionalString(r: Record<string, unknown>, key: string, file: string): Record<string, string> {
  const v = r[key];
  if (v === undefined || v === null || v === '') return {};
  if (typeof v !== 'string') throw hookShapeError('Create', file, `"${key}" as ${describe(v)}; expected a string`);
  return { [key]: v };
}

function delegate(value: unknown, hook: string, file: string): { delegate?: Delegate } {
  if (value === undefined || value === null) return {};
  const d = record(value, hook, file, 'a delegate {agent_id, messages?, options?}');
  if (typeof d.agent_id !== 'string' || !d.agent_id) throw hookShapeError(hook, file, 'a delegate without "agent_id"');
  return {
    delegate: {
      agent_id: d.agent_id,
      ...(d.messages !== undefined && d.messages !== null
        ? { messages: messages(d.messages, hook, file, 'delegate.messages') }
        : {}),
      ...(d.options && typeof d.options === 'object' ? { options: d.options as Record<string, unknown> } : {}),
    },
  };
}

function messages(value: unknown, hook: string, file: string, key: string): Message[] {
  if (!Array.isArray(value))
    throw hookShapeError(hook, file, `"${key}" as ${describe(value)}; expected a list of {role, content}`);
  return value.map((m, i) => {
    if (!m || typeof m !== 'object' || typeof (m as Message).role !== 'string') {
      throw hookShapeError(hook, file, `"${key}[${i}]" without a "role"`);
    }
    return m as Message;
  });
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'string' ? `the string ${JSON.stringify(value.slice(0, 40))}` : `a ${typeof value}`;
}
