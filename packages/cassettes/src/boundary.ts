import { runScopeOf } from '@agentest/kernel/run-scope';
import { type AgentReply, type CallRole, type RunScope } from '@agentest/kernel';
import { canonicalRequest, requestHash } from './canonical.js';
import type { CallPosition, CassetteEntry } from './entry.js';
import { servicesOf } from './services.js';
import { PASS_THROUGH, Tape, type Recorded, type Recorder } from './tape.js';

/** A model call as a connector is about to make it. */
export interface ModelExchange {
  /** The connector id. */
  connector: string;
  /** `openai`, `anthropic`, `mock`: with the model, what prices the call. */
  type: string;
  model: string;
  /** Who asks: the agent (default), a judge or a simulated user. Judges are recognised without it. */
  role?: CallRole;
  /** The request as sent (the wire body for HTTP connectors). Headers are never part of it. */
  body: Record<string, unknown>;
  /** Values that must never be written besides the registered secrets: the connector's key. */
  secrets?: readonly (string | undefined)[];
}

export interface ModelCall {
  /** Makes the call for real, passing the wire reply through the recorder. */
  live(recorder: Recorder): Promise<AgentReply>;
  /** Builds the reply from a recording, as `live` would have from the wire; `pace` replays the timing. */
  replay(recorded: Recorded, pace: boolean): Promise<AgentReply>;
}

/**
 * The connector boundary; `signal` is the call's abort signal, which tells the case run it is made
 * for. Outside a case run, or with no cassettes and no meter, the call goes
 * through untouched. Otherwise it is answered from the case's cassette, made live and recorded, or
 * refused (a miss in replay), by the run's mode; then its tokens and cost are counted for the case.
 */
export async function callModel(exchange: ModelExchange, call: ModelCall, signal: AbortSignal): Promise<AgentReply> {
  const scope = runScopeOf(signal);
  const services = scope && servicesOf(scope.plan);
  if (!services) return call.live(PASS_THROUGH);
  const session = services.cassettes;
  const mode = session?.modeOf(scope!) ?? 'off';
  let reply: AgentReply;
  let replayed = false;
  if (!session || mode === 'off') reply = await call.live(PASS_THROUGH);
  else {
    const request = canonicalRequest(exchange.body);
    const sha = requestHash(request);
    const position = session.next(scope!, 'model', exchange.role ?? scope!.role);
    const found = mode === 'record' ? undefined : await session.find(scope!, position, sha);
    if (found) {
      if (session.timing && !found.chunks) await pause(found.ms);
      reply = await call.replay(found, session.timing);
      replayed = true;
    } else if (mode === 'replay') throw await session.miss(scope!, position, request);
    else {
      const tape = new Tape();
      const started = performance.now();
      reply = await call.live(tape);
      const base = entryBase(scope!, position, exchange.connector, sha, started, request);
      session.record(scope!, { ...base, recorded: tape.recorded }, exchange.secrets);
    }
  }
  services.meter?.count(scope!, exchange, reply, replayed);
  return reply;
}

/** A tool call as the agent's tool loop is about to make it (the MCP tool boundary). */
export interface ToolExchange {
  server: string;
  tool: string;
  arguments: unknown;
}

/**
 * The MCP tool boundary: a tool's result (or its error, which the model sees as the tool's answer)
 * is recorded and replayed like a model's reply, keyed by server, tool and arguments.
 */
export async function callTool(
  exchange: ToolExchange,
  live: () => Promise<unknown>,
  signal: AbortSignal,
): Promise<unknown> {
  const scope = runScopeOf(signal);
  const session = scope && servicesOf(scope.plan)?.cassettes;
  const mode = session?.modeOf(scope!) ?? 'off';
  if (!session || mode === 'off') return live();
  const request = { server: exchange.server, tool: exchange.tool, arguments: exchange.arguments };
  const sha = requestHash(request);
  const position = session.next(scope!, 'tool');
  const found = mode === 'record' ? undefined : await session.find(scope!, position, sha);
  if (found) {
    if (session.timing) await pause(found.ms);
    if (found.error !== undefined) throw new Error(found.error);
    return found.reply;
  }
  if (mode === 'replay') throw await session.miss(scope!, position, request);
  const started = performance.now();
  let result: unknown;
  try {
    result = await live();
  } catch (error) {
    // A tool that fails answers the model with its error; that is behaviour worth replaying too.
    const base = entryBase(scope!, position, exchange.server, sha, started, request);
    session.record(scope!, { ...base, recorded: undefined, error: (error as Error).message });
    throw error;
  }
  session.record(scope!, {
    ...entryBase(scope!, position, exchange.server, sha, started, request),
    recorded: { reply: result },
  });
  return result;
}

function entryBase(
  scope: RunScope,
  position: CallPosition,
  source: string,
  sha: string,
  started: number,
  request: unknown,
): Omit<CassetteEntry, 'reply' | 'chunks' | 'error'> {
  return { case: scope.caseId, ...position, source, sha, ms: elapsed(started), request };
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

function pause(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

/**
 * The clock a case's prompts read (`$SYS.DATE`, `$SYS.TIME`): with cassettes, the time the case was
 * recorded when it replays, so a date in a prompt keeps its key; otherwise now.
 */
export async function caseClock(signal: AbortSignal): Promise<Date> {
  const scope = runScopeOf(signal);
  const session = scope && servicesOf(scope.plan)?.cassettes;
  return session && session.modeOf(scope!) !== 'off' ? session.clock(scope!) : new Date();
}
