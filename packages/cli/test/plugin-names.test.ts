import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_PLUGINS } from '../src/plugin-registry.js';

// A config plugin replaces a default one by name, and messages name the plugin that failed: every
// default plugin package says its name the same way, as `PLUGIN_NAME`, and its plugin carries it.
test('every default plugin package exports PLUGIN_NAME, the name its plugin carries', async () => {
  for (const { package: spec } of DEFAULT_PLUGINS) {
    const module = (await import(spec)) as { default: () => { name: string }; PLUGIN_NAME?: string };
    assert.match(module.PLUGIN_NAME ?? '', /^agentest:[a-z]+$/, `${spec} exports PLUGIN_NAME`);
    assert.equal(module.default().name, module.PLUGIN_NAME, `${spec}: the plugin is named PLUGIN_NAME`);
  }
});

test('a default plugin loaded from its light entry is the plugin its package exports', async () => {
  for (const plugin of DEFAULT_PLUGINS) {
    if (!('entry' in plugin)) continue;
    const [main, entry] = (await Promise.all([import(plugin.package), import(plugin.entry)])) as {
      default: () => { name: string };
    }[];
    assert.equal(entry!.default, main!.default, `${plugin.entry} exports the factory of ${plugin.package}`);
  }
});
