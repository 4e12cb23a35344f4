import { AgentestError, type AgentestPlugin } from '@agentest/kernel';
import { errorMessage } from '@agentest/kernel/errors';
import { debugLogger } from '@agentest/kernel/secrets';
import { importPackage } from './import-module.js';

const debug = debugLogger('agentest:cli');

type PluginFactory = (options?: Record<string, unknown>) => AgentestPlugin;

/**
 * The default plugin set, in tap order. Loaders that recognise a specific form come first; the JSONL
 * plugin, which also takes any other text as a direct message, comes last. Config agents resolve
 * before Yao assistants, so a config entry wins over an assistant of the same id.
 *
 * Every run taps all of them, so each is imported from its lightest entry (`/plugin`, the plugin
 * alone, when the package's main module also exports its machinery): the script sandbox, the kit's
 * discovery and `test()` runner, and the Yao assistant pipeline load inside the plugin when a run
 * first needs them, not when the command starts. Each `load` names its module literally, so a bundler
 * (the `@agentest/test` bundle) compiles the plugin in beside the kernel it shares.
 */
export const DEFAULT_PLUGINS = [
  { key: 'script', package: '@agentest/plugin-script', load: () => import('@agentest/plugin-script/plugin') },
  { key: 'kit', package: '@agentest/plugin-kit', load: () => import('@agentest/plugin-kit/plugin') },
  { key: 'agent', package: '@agentest/plugin-agent', load: () => import('@agentest/plugin-agent') },
  { key: 'yao', package: '@agentest/plugin-yao-resolver', load: () => import('@agentest/plugin-yao-resolver/plugin') },
  { key: 'assert', package: '@agentest/plugin-assert', load: () => import('@agentest/plugin-assert') },
  { key: 'dynamic', package: '@agentest/plugin-dynamic', load: () => import('@agentest/plugin-dynamic') },
  { key: 'judge', package: '@agentest/judge', load: () => import('@agentest/judge') },
  { key: 'snapshot', package: '@agentest/snapshot', load: () => import('@agentest/snapshot') },
  { key: 'jsonl', package: '@agentest/plugin-jsonl', load: () => import('@agentest/plugin-jsonl') },
] as const;

export type DefaultPluginKey = (typeof DEFAULT_PLUGINS)[number]['key'];

/**
 * Instantiates one default plugin. A package that is not installed is skipped (the kernel's
 * NO_LOADER / NO_EXECUTOR errors then say what is missing); one that fails to load is an error.
 */
export async function loadDefaultPlugin(
  key: DefaultPluginKey,
  options: Record<string, unknown>,
): Promise<AgentestPlugin | undefined> {
  const plugin = DEFAULT_PLUGINS.find((p) => p.key === key)!;
  const spec = plugin.package;
  let loaded;
  try {
    loaded = await importPackage(plugin.load);
  } catch (error) {
    throw new AgentestError('PLUGIN_INVALID', `${spec} failed to load: ${errorMessage(error)}`, {
      where: spec,
      cause: error,
    });
  }
  if (!loaded.module) {
    debug('default plugin %s skipped: %s', spec, loaded.missing);
    return undefined;
  }
  const factory = loaded.module.default as PluginFactory | undefined;
  if (typeof factory !== 'function')
    throw new AgentestError('PLUGIN_INVALID', `${spec} has no default-exported plugin factory`, { where: spec });
  return factory(options);
}
