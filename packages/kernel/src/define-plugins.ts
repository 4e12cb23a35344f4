import type { LoadContext, ResolveContext } from './hooks.js';
import type { AgentestPlugin } from './plugin.js';
import type { Agent, AgentRef } from './types/agent.js';
import type { InputSpec, Suite } from './types/test-case.js';

/** What a `resolve` or `load` tap answers: a value, or `undefined` to let the next plugin answer. */
type Answer<T> = T | undefined | Promise<T | undefined>;

/** A plugin that finds agents: the shape `defineResolver` takes. */
export interface ResolverDefinition {
  name: string;
  enforce?: AgentestPlugin['enforce'];
  /** The agent `ref` names (`ref.id` from `-n`, or `ref.path` to search from), or `undefined` to pass it on. */
  resolve(ref: AgentRef, ctx: ResolveContext): Answer<Agent>;
  /** Runs at the end of every run, failed or not: close what `resolve` opened. */
  teardown?(): void | Promise<void>;
}

/** A plugin that reads an input into a suite: the shape `defineLoader` takes. */
export interface LoaderDefinition {
  name: string;
  enforce?: AgentestPlugin['enforce'];
  /** The suite for `input.input` (what `-i` names), or `undefined` when this loader does not know the input. */
  load(input: InputSpec, ctx: LoadContext): Answer<Suite>;
}

/** A resolver plugin: one tap on `resolve` (and on `teardown` when given). */
export function defineResolver(definition: ResolverDefinition): AgentestPlugin {
  const { name } = definition;
  return {
    name,
    ...(definition.enforce ? { enforce: definition.enforce } : {}),
    apply({ hooks }) {
      hooks.resolve.tapPromise(name, async (ref, ctx) => definition.resolve(ref, ctx));
      if (definition.teardown) hooks.teardown.tapPromise(name, async () => definition.teardown!());
    },
  };
}

/** A loader plugin: one tap on `load`. Its cases may come from `createCase`, which checks them as JSONL lines are. */
export function defineLoader(definition: LoaderDefinition): AgentestPlugin {
  const { name } = definition;
  return {
    name,
    ...(definition.enforce ? { enforce: definition.enforce } : {}),
    apply({ hooks }) {
      hooks.load.tapPromise(name, async (input, ctx) => definition.load(input, ctx));
    },
  };
}
