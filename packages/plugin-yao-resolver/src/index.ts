export { default, yaoResolver, PLUGIN_NAME } from './plugin.js';
export type { YaoResolverOptions } from './options.js';
export { describeSearch } from './search.js';
export { connectorId } from './connector-registry.js';
export { deriveAgentId, listAssistants } from './locate.js';
export { findAppRoot, findMarkedRoot } from './app-root.js';
