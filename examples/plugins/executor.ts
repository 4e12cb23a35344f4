/**
 * An executor: runs one case of a kind. This one takes over `agent` cases that carry a conversation in
 * `metadata.turns` (a list of user messages): it sends them one at a time, each with the replies so
 * far, and the last reply is the output. Every other agent case is passed on (`undefined`) to the
 * built-in executor. After an executor answers a passed run, the kernel runs the case's assertions
 * on `output`, under the same deadline, and sets the run's final status.
 *
 * In the config:  plugins: [conversationExecutor()]   (config plugins tap before the built-ins)
 */
import { definePlugin, type Execution, type Message } from '@agentest/test';

export default function conversationExecutor() {
  return definePlugin({
    name: 'example:conversation',
    apply({ hooks }) {
      hooks.execute.for('agent').tapPromise('example:conversation', async (testCase, ctx) => {
        const turns = testCase.metadata?.turns;
        if (!Array.isArray(turns) || !ctx.agent) return undefined; // not a conversation: pass it on
        const started = Date.now();
        const messages: Message[] = [];
        let output: unknown;
        for (const turn of turns) {
          messages.push({ role: 'user', content: String(turn) });
          // `ctx.signal` fires at the case's deadline or on Ctrl-C; the kernel also enforces the deadline.
          const reply = await ctx.agent.run([...messages], ctx.context, ctx.signal);
          messages.push({ role: 'assistant', content: reply.text });
          output = reply.content;
          // What has been said so far survives a timeout: the kernel records `partial` on the case.
          ctx.partial = { output, details: { turns: messages.length / 2 } };
        }
        // A failure of the case is data (`status: 'failed'` with an `error`); a throw becomes an `error` run.
        const execution: Execution = {
          run: ctx.run,
          status: 'passed',
          duration_ms: Date.now() - started,
          output,
          assertions: [], // filled by the kernel with the case's `assert`
          metrics: { turns: turns.length },
          details: { transcript: messages },
        };
        return execution;
      });
    },
  });
}
