import { AgentestError, checkPluginShape, errorMessage, type AgentestPlugin, type KernelApi } from '@agentest/kernel';

/**
 * The config's `plugins`, checked, flattened (a preset may be an array of plugins) and labelled: a
 * plugin whose `apply` throws is reported as `plugins[i]`, the entry the user has to correct.
 */
export function normalisePlugins(entries: readonly unknown[], label: string): AgentestPlugin[] {
  const plugins: AgentestPlugin[] = [];
  entries.flat(Infinity).forEach((entry, i) => {
    if (!entry) return;
    const where = `${label}: plugins[${i}]`;
    checkPluginShape(entry, where);
    plugins.push(labelled(entry, where));
  });
  return plugins;
}

/** The plugin itself (its prototype: name, enforce and methods stay), with an `apply` that says where it is. */
function labelled(plugin: AgentestPlugin, where: string): AgentestPlugin {
  const apply = (api: KernelApi) => {
    try {
      plugin.apply(api);
    } catch (error) {
      if (error instanceof AgentestError) throw error;
      throw new AgentestError(
        'PLUGIN_INVALID',
        `${where} (plugin "${plugin.name}") failed to apply: ${errorMessage(error)}`,
        { where, cause: error },
      );
    }
  };
  return Object.create(plugin, { apply: { value: apply, enumerable: true } }) as AgentestPlugin;
}
