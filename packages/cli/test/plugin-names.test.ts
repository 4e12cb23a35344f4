import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CASSETTES_PLUGIN_NAME, USAGE_PLUGIN_NAME, cassettesPlugin, usagePlugin } from '@agentest/cassettes';
import { PLUGIN_NAME as MESSAGE_REPORTER, messageOutput } from '../src/message-output.js';
import { DEFAULT_PLUGINS } from '../src/plugin-registry.js';
import { BUILTIN_REPORTERS } from '../src/reporter-registry.js';

// A config plugin replaces a default one by name, and messages name the plugin that failed: every
// default plugin package says its name the same way, as `PLUGIN_NAME`, and its plugin carries it.
test('every default plugin package exports PLUGIN_NAME, the name its plugin carries', async () => {
  for (const { package: spec } of DEFAULT_PLUGINS) {
    const module = (await import(spec)) as { default: () => { name: string }; PLUGIN_NAME?: string };
    assert.match(module.PLUGIN_NAME ?? '', /^agentest:[a-z]+$/, `${spec} exports PLUGIN_NAME`);
    assert.equal(module.default().name, module.PLUGIN_NAME, `${spec}: the plugin is named PLUGIN_NAME`);
  }
});

// Reporters are named as DESIGN.md says, `agentest:<name>`, in the messages of a reporter that fails too.
test('every built-in reporter package exports PLUGIN_NAME agentest:<name>, and the CLI names its own reporters so', async () => {
  for (const [name, { package: spec }] of Object.entries(BUILTIN_REPORTERS)) {
    const module = (await import(spec)) as { PLUGIN_NAME?: string };
    assert.equal(module.PLUGIN_NAME, `agentest:${name}`, `${spec} exports PLUGIN_NAME`);
  }
  const io = { stdout: process.stdout, stderr: process.stderr };
  assert.equal(messageOutput(io).name, MESSAGE_REPORTER);
  assert.match(MESSAGE_REPORTER, /^agentest:[a-z]+$/);
  assert.deepEqual(
    [cassettesPlugin({ mode: 'off', cwd: '.', ci: false } as never).name, usagePlugin().name],
    [CASSETTES_PLUGIN_NAME, USAGE_PLUGIN_NAME],
  );
  for (const name of [CASSETTES_PLUGIN_NAME, USAGE_PLUGIN_NAME]) assert.match(name, /^agentest:[a-z]+$/);
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
