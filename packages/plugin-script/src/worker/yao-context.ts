import { formatValue } from './describe.js';

/**
 * Yao's hook `ctx` (agent/docs/context-api.md) on top of the plain data a hook receives. What can be
 * honest without a Yao server is kept: the output methods (`Send`, `SendStream`, `Append`, `Replace`,
 * `Merge`, `Set`, `End`, `EndBlock`) record what would have reached the client as log lines and
 * return message ids like Yao's (`M1`, `M2`, …); `trace` records its log calls (Yao itself hands out
 * a no-op trace when tracing is off). `memory`, `mcp`, `search`, `agent` and `llm` need a running Yao:
 * their methods run a `processes` stub of the same name (`ctx.agent.Call`) or fail saying how to add
 * one. Methods are non-enumerable, so a hook that returns or serialises `ctx` still produces plain data.
 */
export function yaoContext(data: unknown, logs: string[], stubs?: StubCaller): unknown {
  if (!data || typeof data !== 'object') return data;
  const ctx = data as Record<string, unknown>;
  const counters = { M: 0, B: 0, T: 0 };
  const id = (prefix: keyof typeof counters) => () => `${prefix}${++counters[prefix]}`;
  const messageId = id('M');
  const record = (line: string) => void logs.push(line);
  const methods = {
    ...outputMethods(record, messageId),
    MessageID: messageId,
    BlockID: id('B'),
    ThreadID: id('T'),
    Release() {},
    __release() {},
  };
  for (const [name, fn] of Object.entries(methods)) define(ctx, name, fn);
  define(ctx, 'trace', traceObject(record));
  for (const [name, what] of Object.entries(UNAVAILABLE))
    if (!(name in ctx)) define(ctx, name, unavailable(`ctx.${name}`, what, stubs));
  return ctx;
}

/**
 * `Send`, `SendStream`, `Append`, `Replace`, `Merge`, `Set`, `End` and `EndBlock`: each records the line the
 * client would have seen; `Send` and `SendStream` return the message's id (its own, else the next `M<n>`).
 */
function outputMethods(record: (line: string) => void, messageId: () => string): Record<string, Method> {
  return {
    Send(message: unknown, blockId?: unknown) {
      requireArg('Send', 'a message argument', message);
      const msgId = ownId(message) ?? messageId();
      record(`ctx.Send${block(message, blockId)}: ${messageText(message)}`);
      return msgId;
    },
    SendStream(message: unknown, blockId?: unknown) {
      requireArg('SendStream', 'a message argument', message);
      const msgId = ownId(message) ?? messageId();
      record(`ctx.SendStream ${msgId}${block(message, blockId)}: ${messageText(message)}`);
      return msgId;
    },
    Append(msgId: unknown, content: unknown, path?: unknown) {
      const target = needsId('Append', msgId);
      record(`ctx.Append ${target}${typeof path === 'string' ? ` (${path})` : ''}: ${messageText(content)}`);
      return target;
    },
    Replace(msgId: unknown, message: unknown) {
      const target = needsId('Replace', msgId);
      record(`ctx.Replace ${target}: ${messageText(message)}`);
      return target;
    },
    Merge(msgId: unknown, value: unknown, path?: unknown) {
      const target = needsId('Merge', msgId);
      record(`ctx.Merge ${target}${typeof path === 'string' ? ` (${path})` : ''}: ${json(value)}`);
      return target;
    },
    Set(msgId: unknown, value: unknown, path?: unknown) {
      const target = needsId('Set', msgId);
      record(`ctx.Set ${target}${typeof path === 'string' ? ` (${path})` : ''}: ${json(value)}`);
      return target;
    },
    End(msgId: unknown, final?: unknown) {
      const target = needsId('End', msgId);
      record(`ctx.End ${target}${typeof final === 'string' && final ? `: ${final}` : ''}`);
      return target;
    },
    EndBlock(blockId: unknown) {
      record(`ctx.EndBlock ${String(blockId)}`);
    },
  };
}

type Method = (...args: any[]) => unknown;

function needsId(method: string, value: unknown): string {
  if (typeof value !== 'string')
    throw new TypeError(`ctx.${method}: messageId must be a string (the id Send or SendStream returned)`);
  return value;
}

/** Runs the `processes` stub registered under a name such as `ctx.agent.Call`, if there is one. */
export type StubCaller = (name: string, args: unknown[]) => { stubbed: true; value: unknown } | { stubbed: false };

/** What each missing namespace would need, for the error message. */
const UNAVAILABLE: Record<string, string> = {
  memory: 'hook memory is kept by a running Yao server',
  mcp: 'agentest does not start MCP servers for hooks',
  search: 'web, knowledge-base and database search run inside Yao',
  agent: 'calls to other agents from a hook run inside Yao (return {delegate} from Create or Next instead)',
  llm: 'direct LLM calls from a hook run inside Yao',
};

/**
 * `ctx.trace`: its log calls become `TRACE` lines; `Add` and `Parallel` return nodes whose own log
 * calls are recorded and whose lifecycle calls (`Complete`, `Fail`, `SetOutput`, …) are accepted.
 */
function traceObject(record: (line: string) => void): Record<string, unknown> {
  const logMethods = (label: string) =>
    Object.fromEntries(
      ['Info', 'Debug', 'Warn', 'Error'].map((level) => [
        level,
        (format: unknown, ...args: unknown[]) =>
          record(`TRACE ${level.toUpperCase()}${label}: ${[format, ...args].map(json).join(' ')}`),
      ]),
    );
  const node = (option: unknown): Record<string, unknown> => {
    const label =
      option && typeof option === 'object' && typeof (option as { label?: unknown }).label === 'string'
        ? ` [${(option as { label: string }).label}]`
        : '';
    const self: Record<string, unknown> = {
      ...logMethods(label),
      Add: (_input: unknown, child: unknown) => node(child),
      Parallel: (list: unknown) =>
        Array.isArray(list) ? list.map((item) => node((item as { option?: unknown })?.option)) : [],
      SetOutput: () => self,
      SetMetadata: () => self,
      Complete: () => self,
      Fail: (reason: unknown) => void record(`TRACE FAIL${label}: ${json(reason)}`),
      Release: () => undefined,
    };
    return self;
  };
  return node(undefined);
}

/**
 * An object whose methods run the `processes` stub of their full name (`ctx.agent.Call`), so a hook
 * that needs them runs unchanged once the config stands in for the server; without a stub a call
 * throws a message naming the call, why it cannot run here and how to stub it.
 */
function unavailable(path: string, why: string, stubs?: StubCaller): unknown {
  const method =
    (name: string) =>
    (...args: unknown[]) => {
      const call = `${path}.${name}`;
      const outcome = stubs?.(call, args);
      if (outcome?.stubbed) return outcome.value;
      throw new Error(
        `${call}() is not available when agentest runs a hook: ${why}. To run this hook unchanged, stub it with the "processes" option: "${call}": { value: <what it returns> }, or { module: "./stubs.ts", export: "${name}" } to get the same arguments.`,
      );
    };
  return new Proxy(
    {},
    {
      get(_target, key) {
        if (typeof key === 'symbol' || key === 'then' || key === 'toJSON') return undefined;
        // `ctx.memory.user.Get`: one more level for the memory namespaces.
        if (path === 'ctx.memory' && ['user', 'team', 'chat', 'context'].includes(key))
          return unavailable(`${path}.${key}`, why, stubs);
        return method(key);
      },
    },
  );
}

function define(target: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, enumerable: false, configurable: true, writable: true });
}

function requireArg(method: string, what: string, value: unknown): void {
  if (value === undefined) throw new TypeError(`ctx.${method} requires ${what}`);
}

function ownId(message: unknown): string | undefined {
  const id = message && typeof message === 'object' ? (message as { message_id?: unknown }).message_id : undefined;
  return typeof id === 'string' && id ? id : undefined;
}

function block(message: unknown, blockId: unknown): string {
  const own = message && typeof message === 'object' ? (message as { block_id?: unknown }).block_id : undefined;
  const id = typeof own === 'string' && own ? own : typeof blockId === 'string' ? blockId : '';
  return id ? ` [${id}]` : '';
}

/** `"Hi"` and `{type: "text", props: {content: "Hi"}}` both read `Hi`; other types show type and props. */
function messageText(message: unknown): string {
  if (typeof message === 'string') return message;
  if (!message || typeof message !== 'object') return json(message);
  const { type, props } = message as { type?: unknown; props?: Record<string, unknown> };
  if ((type === 'text' || type === undefined) && typeof props?.content === 'string') return props.content;
  return type === undefined ? json(message) : `${String(type)} ${json(props ?? {})}`;
}

function json(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? formatValue(value);
  } catch {
    return formatValue(value);
  }
}
