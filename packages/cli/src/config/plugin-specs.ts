import { resolve } from 'node:path';
import {
  AgentestError,
  checkPluginShape,
  isAgentestError,
  type AgentestPlugin,
  type KernelApi,
} from '@agentest/kernel';
import { errorMessage } from '@agentest/kernel/errors';
import { importUserModule } from '../import-module.js';
import { looksLikePath, packageEntry } from '../resolve-package.js';

/** A config's `plugins` entry: a plugin, a preset (an array of them), a package or path, `[name, options]`. */
export type PluginEntry =
  AgentestPlugin | string | [string, Record<string, unknown>] | false | null | undefined | readonly PluginEntry[];

/**
 * The config's `plugins`, checked, loaded, flattened (a preset may be an array of plugins) and labelled:
 * a plugin whose `apply` throws is reported as `plugins[i]`, the entry the user has to correct. A name
 * is a package installed where the config is, or a path relative to it; its default export is a
 * factory called with the entry's options (`['pkg', { … }]`).
 */
export async function normalisePlugins(
  entries: readonly unknown[],
  dir: string,
  label: string,
): Promise<AgentestPlugin[]> {
  const loaded = await Promise.all(entries.map((entry, i) => pluginsOf(entry, dir, `${label}: plugins[${i}]`)));
  return loaded.flat();
}

async function pluginsOf(entry: unknown, dir: string, where: string): Promise<AgentestPlugin[]> {
  if (!entry) return [];
  if (typeof entry === 'string') return [await pluginByName(entry, {}, dir, where)];
  if (Array.isArray(entry) && typeof entry[0] === 'string') {
    const [name, options = {}] = entry as [string, unknown];
    if (!options || typeof options !== 'object' || Array.isArray(options) || entry.length > 2)
      throw new AgentestError('PLUGIN_INVALID', `${where}: expected [name, options], got ${JSON.stringify(entry)}`, {
        where,
      });
    return [await pluginByName(name, options as Record<string, unknown>, dir, where)];
  }
  if (Array.isArray(entry)) {
    const nested = await Promise.all(entry.map((inner, j) => pluginsOf(inner, dir, `${where}[${j}]`)));
    return nested.flat();
  }
  checkPluginShape(entry, where);
  return [labelled(entry, where)];
}

/** A plugin package (or module path): its default export, a factory, called with the entry's options. */
async function pluginByName(
  name: string,
  options: Record<string, unknown>,
  dir: string,
  where: string,
): Promise<AgentestPlugin> {
  const file = await pluginFile(name, dir, where);
  let mod: Record<string, unknown>;
  try {
    mod = await importUserModule(file);
  } catch (error) {
    if (isAgentestError(error)) throw error;
    throw new AgentestError('PLUGIN_INVALID', `${where}: plugin "${name}" failed to load: ${errorMessage(error)}`, {
      where,
      cause: error,
    });
  }
  const factory = mod.default;
  if (typeof factory !== 'function')
    throw new AgentestError(
      'PLUGIN_INVALID',
      `${where}: "${name}" must default-export a plugin factory ((options) => plugin), got ${typeof factory}`,
      { where },
    );
  let plugin: unknown;
  try {
    plugin = factory(options);
  } catch (error) {
    if (isAgentestError(error)) throw error;
    throw new AgentestError('PLUGIN_INVALID', `${where}: plugin "${name}" failed to start: ${errorMessage(error)}`, {
      where,
      cause: error,
    });
  }
  checkPluginShape(plugin, `${where} (${name})`);
  return labelled(plugin, where);
}

async function pluginFile(name: string, dir: string, where: string): Promise<string> {
  if (looksLikePath(name)) return resolve(dir, name);
  const file = await packageEntry(dir, name, where, 'PLUGIN_INVALID', 'plugin');
  if (file) return file;
  throw new AgentestError(
    'PLUGIN_INVALID',
    `${where}: plugin package "${name}" is not installed where the config is (looked from ${dir}); install it (npm i -D ${name}) or give a path starting with ./`,
    { where },
  );
}

/** The plugin itself (its prototype: name, enforce and methods stay), with an `apply` that says where it is. */
function labelled(plugin: AgentestPlugin, where: string): AgentestPlugin {
  const apply = (api: KernelApi) => {
    try {
      plugin.apply(api);
    } catch (error) {
      if (isAgentestError(error)) throw error;
      throw new AgentestError(
        'PLUGIN_INVALID',
        `${where} (plugin "${plugin.name}") failed to apply: ${errorMessage(error)}`,
        { where, cause: error },
      );
    }
  };
  return Object.create(plugin, { apply: { value: apply, enumerable: true } }) as AgentestPlugin;
}
