import type { AgentestPlugin } from '@agentest/kernel';
import { validateOptions, type YaoResolverOptions } from './options.js';
import { YaoResolver } from './yao-resolver.js';

export const PLUGIN_NAME = 'agentest:yao';

/**
 * Resolves Yao assistants (`assistants/**\/package.yao`) and their connectors (`connectors/**\/*.conn.yao`)
 * into agents that run Yao's Create → prompts → LLM → Next pipeline.
 *
 * Two taps on `resolve`: the resolver itself, and a late one (stage 100, after every other plugin's
 * resolvers) that turns "nobody knew this id" inside a Yao app into a message saying where it looked.
 */
export default function yaoResolver(options?: YaoResolverOptions): AgentestPlugin {
  return {
    name: PLUGIN_NAME,
    apply({ hooks }) {
      const resolver = new YaoResolver(validateOptions(options));
      hooks.resolve.tapPromise(PLUGIN_NAME, (ref, { plan }) => resolver.resolve(ref, plan.input.cwd));
      hooks.resolve.tapPromise({ name: PLUGIN_NAME, stage: 100 }, (ref, { plan }) =>
        resolver.notFound(ref, plan.input.cwd),
      );
      hooks.teardown.tapPromise(PLUGIN_NAME, () => resolver.close());
    },
  };
}

export { yaoResolver };
export type { YaoResolverOptions } from './options.js';
export { describeSearch } from './search.js';
export { connectorId } from './connector-registry.js';
export { deriveAgentId, listAssistants } from './locate.js';
export { findAppRoot, findMarkedRoot } from './app-root.js';
