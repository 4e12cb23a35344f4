import { AgentestError } from './errors.js';
import type { PublicHooks } from './hooks.js';

/** What a plugin's `apply` receives: hooks to tap, and a sink for failures that must not stop the run. */
export interface KernelApi {
  readonly hooks: PublicHooks;
  /** Records an error that makes the run end with exit code 3 without changing any verdict (reporters). */
  reportError(error: Error): void;
  /**
   * Starts no new case from now on (a budget was reached): running cases finish, every case not
   * started is reported as skipped with `not run: <reason>`, the summary says `halted`, and the run
   * exits 1. The first reason given is kept.
   */
  halt?(reason: string): void;
}

export interface AgentestPlugin {
  name: string;
  /** `pre` plugins tap before the others, `post` after; inside a bucket, the order of `use()`. */
  enforce?: 'pre' | 'post';
  /** Registers taps and nothing else: no I/O here (do it in `setup`). */
  apply(kernel: KernelApi): void;
  /**
   * A top-level config key this plugin reads (`slack: { … }` beside `plugins`). The CLI accepts the key
   * when the plugin is in the config's `plugins`, and hands its value to `configure` before any run.
   * Declare the key's type by augmenting `AgentestConfigExtensions`, so a config that misspells it fails `tsc`.
   */
  configKey?: string;
  /** Receives the value of `configKey` from the config; throw on a bad value (a configuration error naming the key). */
  configure?(section: unknown): void;
}

/**
 * The config keys plugins add to `defineConfig`, declared by module augmentation: the config type has
 * no index signature, so a key nobody declared (`reporter:` for `reporters:`) fails `tsc`.
 *
 *     declare module '@agentest/test' {
 *       interface AgentestConfigExtensions { slack?: { channel: string } }
 *     }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by augmentation
export interface AgentestConfigExtensions {}

/** Only adds types: a plain object with `name` and `apply` works the same. */
export function definePlugin<T extends AgentestPlugin>(plugin: T): T {
  return plugin;
}

/** Checks that a value has a plugin's shape, with a message that says what to do when it has not. */
export function checkPluginShape(value: unknown, where: string): asserts value is AgentestPlugin {
  const v = value as Partial<AgentestPlugin> | null;
  if (!v || typeof v !== 'object' || typeof v.name !== 'string' || typeof v.apply !== 'function') {
    const hint = typeof value === 'function' ? ' It is a function: call the plugin factory, e.g. `myPlugin()`.' : '';
    throw new AgentestError(
      'PLUGIN_INVALID',
      `${where}: expected a plugin object with "name" and "apply", got ${describe(value)}.${hint}`,
      { where },
    );
  }
  if (v.enforce !== undefined && v.enforce !== 'pre' && v.enforce !== 'post') {
    throw new AgentestError(
      'PLUGIN_INVALID',
      `${where}: plugin "${v.name}" has enforce ${JSON.stringify(v.enforce)}; use "pre", "post" or leave it out`,
      { where },
    );
  }
}

/** Orders plugins into their buckets: pre, normal, post. */
export function orderPlugins(plugins: readonly AgentestPlugin[]): AgentestPlugin[] {
  const rank = (p: AgentestPlugin) => (p.enforce === 'pre' ? 0 : p.enforce === 'post' ? 2 : 1);
  return [...plugins].sort((a, b) => rank(a) - rank(b));
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'function') return `function ${value.name || '(anonymous)'}`;
  return typeof value;
}
