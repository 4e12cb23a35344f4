/**
 * A resolver: finds the agent that `-n <id>` (or a suite's `agent`) names. This one answers for ids of
 * the form `reverse` or `reverse:<prefix>` with an agent that replies with the last user message
 * reversed; every other id is passed on (`undefined`) to the next resolver, then to the built-ins.
 *
 * In the config:  plugins: [reverseResolver({ prefix: '> ' })]   then   agentest test -n reverse …
 */
import { defineResolver, type Agent } from '@agentest/test';

export default function reverseResolver(options: { prefix?: string } = {}) {
  return defineResolver({
    name: 'example:reverse',
    resolve(ref) {
      if (ref.id !== 'reverse' && !ref.id?.startsWith('reverse:')) return undefined; // not ours: pass it on
      const prefix = ref.id.slice('reverse:'.length) || options.prefix || '';
      const agent: Agent = {
        id: ref.id,
        async run(messages, _ctx, signal) {
          signal.throwIfAborted(); // a real agent hands `signal` to its HTTP client
          const last = messages.findLast((m) => m.role === 'user');
          const text = prefix + [...String(last?.content ?? '')].reverse().join('');
          // `content` is what assertions see; `text` is how reporters show it.
          return { content: text, text };
        },
      };
      return agent;
    },
  });
}
