import type { AgentestPlugin } from '@agentest/kernel';
import { validateOptions, type YaoResolverOptions } from './options.js';
import type { YaoResolver } from './yao-resolver.js';

export const PLUGIN_NAME = 'agentest:yao';

/**
 * Resolves Yao assistants (`assistants/**\/package.yao`) and their connectors (`connectors/**\/*.conn.yao`)
 * into agents that run Yao's Create → prompts → LLM → Next pipeline.
 *
 * Two taps on `resolve`: the resolver itself, and a late one (stage 100, after every other plugin's
 * resolvers) that turns "nobody knew this id" inside a Yao app into a message saying where it looked.
 * The resolver (the assistant pipeline, its hooks and tools) loads with the first reference that
 * reaches it: a run whose agent a config entry or a built-in answers never loads it.
 */
export default function yaoResolver(options?: YaoResolverOptions): AgentestPlugin {
  return {
    name: PLUGIN_NAME,
    apply({ hooks }) {
      const validated = validateOptions(options);
      let loaded: Promise<YaoResolver> | undefined;
      const resolver = () =>
        (loaded ??= import('./yao-resolver.js').then(({ YaoResolver }) => new YaoResolver(validated)));
      hooks.resolve.tapPromise(PLUGIN_NAME, async (ref, { plan }) => (await resolver()).resolve(ref, plan.input.cwd));
      hooks.resolve.tapPromise({ name: PLUGIN_NAME, stage: 100 }, async (ref, { plan }) =>
        (await resolver()).notFound(ref, plan.input.cwd),
      );
      hooks.teardown.tapPromise(PLUGIN_NAME, async () => {
        const started = loaded;
        loaded = undefined;
        // A resolver that failed to load has nothing to close; the run already reported the failure.
        await (await started?.catch(() => undefined))?.close();
      });
    },
  };
}

export { yaoResolver };
