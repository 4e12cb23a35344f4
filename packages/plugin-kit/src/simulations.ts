import type { ExecuteContext, TestCase } from '@agentest/kernel';
import { briefFromMetadata, ConversationStepper } from '@agentest/plugin-dynamic';
import type { DynamicDetails } from '@agentest/report';
import type { SimulateOptions, SimulationResult } from './types.js';
import type { SimulationHost } from './simulate-loop.js';

const DEFAULT_SIMULATED_TURNS = 10;

/**
 * The main-thread side of `ctx.simulate` for one test run: each simulation is a conversation stepper
 * between the simulator and the suite's agent. The last one is kept for the run's details, so reports
 * draw it like a dynamic case's. A simulator or agent failure throws into the test (its run is an error).
 */
export class Simulations implements SimulationHost {
  private readonly running = new Map<number, { stepper: ConversationStepper; simulator: string; maxTurns: number }>();
  private next = 1;
  last?: DynamicDetails;

  constructor(
    private readonly testCase: TestCase,
    private readonly ctx: ExecuteContext,
  ) {}

  async simulateStart(options: Omit<SimulateOptions, 'until'>): Promise<number> {
    const agent = this.ctx.agent;
    if (!agent) throw new Error('ctx.simulate: this suite has no agent; pass -n <agent-id>');
    const id = options.simulator ?? this.ctx.plan.simulator;
    if (!id)
      throw new Error("ctx.simulate needs a simulator: pass { simulator: '<agent id>' } or --simulator <agent id>");
    const maxTurns = options.maxTurns ?? DEFAULT_SIMULATED_TURNS;
    if (!Number.isInteger(maxTurns) || maxTurns < 1)
      throw new TypeError(
        `ctx.simulate: maxTurns must be a whole number of at least 1, got ${String(options.maxTurns)}`,
      );
    const simulator = await this.ctx.resolveAgent({ id: id.replace(/^agents:/, '') });
    const brief = briefFromMetadata({
      ...options.extra,
      ...(options.persona !== undefined ? { persona: options.persona } : {}),
      ...(options.goal !== undefined ? { goal: options.goal } : {}),
    });
    const stepper = new ConversationStepper({
      agent,
      simulator,
      brief,
      initial: typeof options.input === 'string' ? [{ role: 'user', content: options.input }] : [],
      maxTurns,
      context: this.ctx.context,
      signal: this.ctx.signal,
      call: { testCase: this.testCase },
    });
    const key = this.next++;
    this.running.set(key, { stepper, simulator: simulator.id, maxTurns });
    return key;
  }

  async simulateStep(id: number): Promise<{ ended?: SimulationResult['ended']; turn?: number; reply?: string }> {
    const { stepper } = this.session(id);
    const record = stepper.record;
    // Ended on the previous step (its last reply at max_turns was shown to `until` then).
    if (record.end) return { ended: record.end as SimulationResult['ended'] };
    const ended = await stepper.step();
    if (record.error) throw new Error(`ctx.simulate: ${record.error}`);
    const turn = record.turns.at(-1);
    const reply = turn?.output === undefined ? undefined : text(turn.output);
    // The limit is reached after the last reply: `until` still sees it first.
    const end = stepper.record.end;
    if (ended && end !== 'max_turns') return { ended: end as SimulationResult['ended'] };
    return { ...(turn ? { turn: turn.turn } : {}), ...(reply !== undefined ? { reply } : {}) };
  }

  async simulateFinish(id: number, ended: SimulationResult['ended']): Promise<SimulationResult> {
    const { stepper, simulator, maxTurns } = this.session(id);
    this.running.delete(id);
    const { turns, transcript } = stepper.record;
    const replies = turns.filter((t) => t.output !== undefined);
    this.last = {
      simulator,
      max_turns: maxTurns,
      total_turns: replies.length,
      end_reason: ended === 'until' ? 'completed' : ended,
      turns,
      checkpoints: [],
      transcript,
      ...(stepper.record.final_message ? { final_message: stepper.record.final_message } : {}),
    };
    return {
      transcript: transcript.map((m) => ({ role: m.role, content: m.content })),
      turns: turns.map((t) => ({
        turn: t.turn,
        user: t.input,
        ...(t.output !== undefined ? { reply: text(t.output) } : {}),
        duration_ms: t.duration_ms,
      })),
      ended,
      last: replies.length ? text(replies.at(-1)!.output) : '',
    };
  }

  private session(id: number) {
    const session = this.running.get(id);
    if (!session) throw new Error(`ctx.simulate: no simulation ${id} is running`);
    return session;
  }
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}
