import type { AgentestPlugin, Execution, RunPlan, TestCase } from '../src/index.js';

export function plan(overrides: Partial<RunPlan> = {}): RunPlan {
  return {
    input: { input: 'inline', cwd: process.cwd() },
    runs: 1,
    parallel: 1,
    failFast: false,
    env: {},
    verbose: false,
    ...overrides,
  };
}

export function testCase(id: string, extra: Partial<TestCase> = {}): TestCase {
  return {
    id,
    kind: 'agent',
    input: id,
    messages: [{ role: 'user', content: id }],
    source: { file: 'inline.jsonl', line: 1 },
    ...extra,
  };
}

/** A loader, an echo agent, an agent executor and a `contains` assertion: the smallest useful kernel. */
export function inlinePlugins(
  cases: TestCase[],
  run?: (c: TestCase, signal: AbortSignal) => Promise<Partial<Execution>>,
): AgentestPlugin[] {
  return [
    {
      name: 'test:inline',
      apply({ hooks }) {
        hooks.load.tapPromise('test:inline', async (input) =>
          input.input === 'inline' ? { name: 'inline', needsAgent: true, cases: () => cases } : undefined,
        );
        hooks.resolve.tapPromise('test:inline', async () => ({
          id: 'echo',
          run: async (m) => ({ content: m.at(-1)!.content, text: String(m.at(-1)!.content) }),
        }));
        hooks.execute.for('agent').tapPromise('test:inline', async (c, ctx) => {
          if (run)
            return {
              run: ctx.run,
              status: 'passed',
              duration_ms: 1,
              assertions: [],
              metrics: {},
              ...(await run(c, ctx.signal)),
            } as Execution;
          const reply = await ctx.agent!.run(c.messages, ctx.context, ctx.signal);
          return { run: ctx.run, status: 'passed', duration_ms: 1, output: reply.content, assertions: [], metrics: {} };
        });
        hooks.assert
          .for('contains')
          .tap('test:inline', (a, input) => ({
            pass: String(input.output).includes(String(a.value)),
            message: `output does not contain '${a.value}'`,
          }));
      },
    },
  ];
}

export function collector(): { plugin: AgentestPlugin; events: { type: string; [k: string]: unknown }[] } {
  const events: { type: string; [k: string]: unknown }[] = [];
  return {
    events,
    plugin: {
      name: 'test:collector',
      apply: ({ hooks }) => hooks.report.tap('test:collector', (e) => void events.push(e as never)),
    },
  };
}
