import { normalizeFault } from './faults.js';
import type { Fault, FakeLlmScript, FakeReply, FakeRule, MatchInput, RecordedRequest } from './types.js';

/** A reply with every default filled in, ready for either wire format. */
export interface PlannedReply {
  text: string;
  toolCalls: { id?: string; name: string; arguments: string }[];
  reasoning?: string;
  finishReason?: string;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

/** What the server does with one request. */
export interface Plan {
  reply: PlannedReply;
  fault?: Fault;
  latencyMs: number;
}

interface CompiledRule {
  rule: FakeRule;
  test: (input: MatchInput) => boolean;
  fault?: Fault;
  uses: number;
}

/**
 * Decides, per request, the reply, the fault and the latency. Precedence: a queued fault, then the
 * first matching rule's fault, then a count schedule (`every`). Rules are validated when set, so a
 * bad script fails at `startFakeLlm`/`setScript` rather than as a confusing HTTP error.
 */
export class Planner {
  private script: FakeLlmScript = {};
  private rules: CompiledRule[] = [];
  private queue: (Fault | null)[] = [];

  constructor(script: FakeLlmScript) {
    this.setScript(script);
  }

  setScript(script: FakeLlmScript): void {
    this.rules = (script.rules ?? []).map((rule, i) => ({
      rule,
      test: compileMatch(rule.match, i),
      fault: rule.fault === undefined ? undefined : normalizeFault(rule.fault),
      uses: 0,
    }));
    for (const schedule of script.faults ?? []) {
      if (!(Number.isInteger(schedule.every) && schedule.every >= 1))
        throw new TypeError(`fake-llm: "every" must be a positive integer, got ${schedule.every}`);
      normalizeFault(schedule.fault);
    }
    this.queue = (script.queue ?? []).map((f) => (f === null ? null : normalizeFault(f)));
    this.script = script;
  }

  enqueue(faults: (Fault | null)[]): void {
    this.queue.push(...faults);
  }

  plan(request: RecordedRequest): Plan {
    const input: MatchInput = { text: request.text, request };
    const queued = this.queue.length > 0 ? this.queue.shift() : null;
    const rule = this.rules.find((r) => (r.rule.times === undefined || r.uses < r.rule.times) && r.test(input));
    if (rule) rule.uses++;
    const fault = queued ?? rule?.fault ?? this.scheduled(request.index);
    const reply = rule?.rule.reply ?? (this.script.echo ? request.text : (this.script.default ?? 'OK'));
    return {
      reply: normalizeReply(typeof reply === 'function' ? reply(input) : reply),
      fault,
      latencyMs: rule?.rule.latencyMs ?? this.script.latencyMs ?? 0,
    };
  }

  private scheduled(index: number): Fault | undefined {
    const hit = (this.script.faults ?? []).find(
      (s) => (index - (s.offset ?? 0)) % s.every === 0 && index > (s.offset ?? 0),
    );
    return hit ? normalizeFault(hit.fault) : undefined;
  }
}

function compileMatch(match: FakeRule['match'], index: number): (input: MatchInput) => boolean {
  if (match === undefined) return () => true;
  if (typeof match === 'function') return match;
  if (match instanceof RegExp) return (input) => match.test(input.text);
  if (typeof match === 'string') {
    let re: RegExp;
    try {
      re = new RegExp(match, 'i');
    } catch (error) {
      throw new TypeError(
        `fake-llm: rule #${index + 1} has an invalid regex ${JSON.stringify(match)}: ${(error as Error).message}`,
        { cause: error },
      );
    }
    return (input) => re.test(input.text);
  }
  throw new TypeError(`fake-llm: rule #${index + 1} "match" must be a regex, a string or a function`);
}

export function normalizeReply(reply: FakeReply): PlannedReply {
  if (typeof reply === 'string') return { text: reply, toolCalls: [] };
  return {
    text: reply.text ?? '',
    toolCalls: (reply.toolCalls ?? []).map((call) => ({
      id: call.id,
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
    })),
    reasoning: reply.reasoning,
    finishReason: reply.finishReason,
    usage: reply.usage,
  };
}
