import type { AgentestPlugin, AgentRef, Execution, ExecuteContext, TestCase } from '@agentest/kernel';
import { INLINE } from './plan.js';

const NAME = 'test';

/** Loads `cases` for the `inline` input, as a loader of files would, with the agent hint a file may carry. */
export function inlineCases(
  cases: TestCase[],
  options: { needsAgent?: boolean; agentHint?: AgentRef } = {},
): AgentestPlugin {
  const suite = { name: INLINE, needsAgent: options.needsAgent ?? true, cases: () => cases };
  return {
    name: `${NAME}:inline`,
    apply({ hooks }) {
      hooks.load.tapPromise(`${NAME}:inline`, async (input) =>
        input.input === INLINE
          ? { ...suite, ...(options.agentHint ? { agentHint: options.agentHint } : {}) }
          : undefined,
      );
    },
  };
}

/** Resolves every agent reference to `echo`, which replies with the last message's content. */
export function echoAgent(): AgentestPlugin {
  return {
    name: `${NAME}:echo`,
    apply({ hooks }) {
      hooks.resolve.tapPromise(`${NAME}:echo`, async (ref) => ({
        id: 'echo',
        ...(ref.path ? { path: ref.path } : {}),
        run: async (messages) => ({ content: messages.at(-1)!.content, text: String(messages.at(-1)!.content) }),
      }));
    },
  };
}

/** A scripted run of one case: what the execution reports instead of asking the agent. */
export type ScriptedRun = (testCase: TestCase, signal: AbortSignal, ctx: ExecuteContext) => Promise<Partial<Execution>>;

/**
 * Executes agent cases: asks the resolved agent and makes its reply the output, or, with `run`, reports what
 * `run` returns over a passed execution (`status`, `output`, `metrics`, …).
 */
export function agentExecutor(run?: ScriptedRun): AgentestPlugin {
  return {
    name: `${NAME}:execute`,
    apply({ hooks }) {
      hooks.execute.for('agent').tapPromise(`${NAME}:execute`, async (c, ctx) => {
        const passed: Execution = { run: ctx.run, status: 'passed', duration_ms: 1, assertions: [], metrics: {} };
        if (run) return { ...passed, ...(await run(c, ctx.signal, ctx)) } as Execution;
        const reply = await ctx.agent!.run(c.messages, ctx.context, ctx.signal);
        return { ...passed, output: reply.content };
      });
    },
  };
}

/** `contains`, failing with the message `output does not contain '<value>'`. */
export function containsAssertion(): AgentestPlugin {
  return {
    name: `${NAME}:contains`,
    apply({ hooks }) {
      hooks.assert.for('contains').tap(`${NAME}:contains`, (a, input) => ({
        pass: String(input.output).includes(String(a.value)),
        message: `output does not contain '${a.value}'`,
      }));
    },
  };
}

/** `equals`: the output and the value are the same JSON. */
export function equalsAssertion(): AgentestPlugin {
  return {
    name: `${NAME}:equals`,
    apply({ hooks }) {
      hooks.assert
        .for('equals')
        .tap(`${NAME}:equals`, (a, input) => ({ pass: JSON.stringify(a.value) === JSON.stringify(input.output) }));
    },
  };
}

/** Several plugins as one, under one name (a test that swaps or orders whole plugins wants one). */
export function combine(name: string, plugins: AgentestPlugin[]): AgentestPlugin {
  return { name, apply: (api) => plugins.forEach((plugin) => plugin.apply(api)) };
}

/**
 * The smallest useful kernel as one plugin: the inline loader, the echo agent, an agent executor (scripted by
 * `run`, if given) and `contains`.
 */
export function inlinePlugins(cases: TestCase[], run?: ScriptedRun): AgentestPlugin[] {
  return [combine('test:inline', [inlineCases(cases), echoAgent(), agentExecutor(run), containsAssertion()])];
}
