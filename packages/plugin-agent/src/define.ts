import { AgentestError, type Agent } from '@agentest/kernel';
import { AgentestTypeError } from '@agentest/kernel/errors';
import type { Adapter } from './adapter.js';
import type { AdapterInput } from './adapter-input.js';
import type { StandardResult } from './grade.js';
import { adapterShape, agentShape, describe, formatIssues } from './shapes.js';

/** What `defineAgent` accepts: `run` is required, the rest (id, connector, path, close) optional. */
export type AgentDefinition = Pick<Agent, 'run'> & Partial<Agent>;

/**
 * Declares an agentest-kit adapter: `call` the system, `evaluate` the reply (sync or async).
 * It only adds types and checks the members: a plain object with the same members works the same.
 * An object that is no adapter throws a TypeError, as agentest-kit's does (still `CONFIG_INVALID`).
 */
export function defineAdapter<Input extends AdapterInput = AdapterInput, CallResult = any, Evaluation = StandardResult>(
  adapter: Adapter<Input, CallResult, Evaluation>,
): Adapter<Input, CallResult, Evaluation> {
  try {
    check(adapterShape(), adapter, 'defineAdapter', 'an adapter is { call(input), evaluate?(callResult, input) }');
  } catch (error) {
    const { message, where } = error as AgentestError;
    throw new AgentestTypeError('CONFIG_INVALID', message, where ? { where } : {});
  }
  return adapter;
}

/** Declares an agent: anything with `run(messages, ctx, signal, call?)`. Only adds types and checks. */
export function defineAgent<T extends AgentDefinition>(agent: T): T {
  check(agentShape(), agent, 'defineAgent', 'an agent is { run(messages, ctx, signal, call?) }');
  return agent;
}

function check(
  schema: ReturnType<typeof adapterShape> | ReturnType<typeof agentShape>,
  value: unknown,
  helper: string,
  hint: string,
): void {
  if (!value || typeof value !== 'object') {
    throw new AgentestError('CONFIG_INVALID', `${helper}() expects an object, got ${describe(value)}; ${hint}`, {
      where: helper,
    });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new AgentestError('CONFIG_INVALID', `${helper}(): ${formatIssues('', parsed.error)}; ${hint}`, {
      where: helper,
    });
}
