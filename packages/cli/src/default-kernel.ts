import { join, resolve } from 'node:path';
import { createKernel, type AgentestPlugin, type Kernel } from '@agentest/kernel';
import { VERDICT_PLUGIN_NAME, verdictPlugin } from '@agentest/report';
import type { AgentestConfig } from './config/define-config.js';
import { normaliseConfig, type NormalisedConfig } from './config/normalise-config.js';
import type { ReporterSpec } from './config/reporter-specs.js';
import { DEFAULT_PLUGINS, loadDefaultPlugin, type DefaultPluginKey } from './plugin-registry.js';
import { BUILTIN_REPORTERS, instantiateReporter, reporterOptions } from './reporter-registry.js';
import { callPlugins, type CallOptions } from './call-plugins.js';

export interface DefaultKernelOptions {
  /** Where relative paths start; defaults to `process.cwd()`. */
  cwd?: string;
  /** Given to every config reporter, as `--verbose` is by the CLI (default false). */
  verbose?: boolean;
  /** `false` turns colour off in every config reporter, as `--no-color` does; left out, each follows the policy. */
  color?: boolean;
  /**
   * The reporter plugins to use instead of the config's `reporters` (the CLI builds its own from
   * flags and config). Without it, the config's reporters are used, and a file reporter without an
   * `output` writes `.agentest/report.<ext>` under `cwd`.
   */
  reporters?: AgentestPlugin[];
  /** Cassette mode, replay timing and budget from the command line, over the config's. */
  calls?: CallOptions;
  /** Where plugins print what they say after a run (obsolete snapshots); default `process.stderr`. */
  stderr?: { write(text: string): unknown };
}

/**
 * A kernel with the default plugin set (JSONL, assertions, agents, scripts, Yao assistants,
 * agentest-kit files) and the ship verdict, the config's own plugins first so they can take over any hook, and the
 * reporters. A config plugin with the name of a default plugin replaces it.
 */
export async function createDefaultKernel(
  config: AgentestConfig = {},
  options: DefaultKernelOptions = {},
): Promise<Kernel> {
  const cwd = resolve(options.cwd ?? process.cwd());
  return kernelFromConfig(await normaliseConfig(config, { cwd }), { ...options, cwd });
}

/** The same, from a config that is already normalised (the CLI's path). */
export async function kernelFromConfig(
  config: NormalisedConfig,
  options: DefaultKernelOptions & { cwd: string },
): Promise<Kernel> {
  const own = new Set(config.plugins.map((p) => p.name));
  const defaults: AgentestPlugin[] = [];
  for (const { key } of DEFAULT_PLUGINS) {
    const plugin = await loadDefaultPlugin(key, defaultOptions(key, config, options));
    if (plugin && !own.has(plugin.name)) defaults.push(plugin);
  }
  const reporters = options.reporters ?? (config.reporters ?? []).map((spec) => instantiate(spec, options));
  const calls = callPlugins(config, options.cwd, options.calls);
  return createKernel({ plugins: [...config.plugins, ...defaults, ...shipVerdict(config), ...calls, ...reporters] });
}

/** The ship verdict is policy, not the kernel's: a config plugin of the same name judges instead. */
export function shipVerdict(config: Pick<NormalisedConfig, 'plugins'>): AgentestPlugin[] {
  return config.plugins.some((p) => p.name === VERDICT_PLUGIN_NAME) ? [] : [verdictPlugin()];
}

function defaultOptions(
  key: DefaultPluginKey,
  config: NormalisedConfig,
  { cwd, stderr }: Pick<DefaultKernelOptions, 'stderr'> & { cwd: string },
): Record<string, unknown> {
  // Hooks and test() files run in the same sandbox as scripts: the config's `script` threads, memory
  // and environment apply to them too.
  const sandbox = sandboxOf(config.pluginOptions.script);
  switch (key) {
    case 'agent':
      return { agents: config.agents, connectors: config.connectors };
    case 'kit':
      return {
        ...(config.test.include ? { include: config.test.include } : {}),
        ...sandbox,
        ...config.pluginOptions.kit,
      };
    case 'script':
      return { ...config.pluginOptions.script };
    case 'jsonl':
      return { ...config.pluginOptions.jsonl };
    case 'yao':
      // Connectors declared in the config are visible to Yao assistants too (they win over files).
      return {
        ...(config.connectors ? { connectors: config.connectors } : {}),
        configAgents: Object.keys(config.agents),
        ...sandbox,
        ...config.pluginOptions.yao,
      };
    case 'snapshot':
      // Suites' snapshot files are found from where the run's relative paths start, not the process's folder.
      return { cwd, ...(stderr ? { stderr } : {}) };
    default:
      return {};
  }
}

function sandboxOf(script: Record<string, unknown> | undefined): { sandbox?: Record<string, unknown> } {
  const picked = Object.fromEntries(
    ['maxThreads', 'memoryLimitMb', 'env']
      .filter((name) => script?.[name] !== undefined)
      .map((name) => [name, script![name]]),
  );
  return Object.keys(picked).length ? { sandbox: picked } : {};
}

function instantiate(spec: ReporterSpec, options: DefaultKernelOptions & { cwd: string }): AgentestPlugin {
  if (spec.kind === 'plugin') return spec.plugin;
  const { cwd } = options;
  const needsFile =
    spec.kind === 'builtin' && BUILTIN_REPORTERS[spec.name].writesFile && typeof spec.options.output !== 'string';
  const output = needsFile
    ? {
        output: join(
          cwd,
          '.agentest',
          `report${BUILTIN_REPORTERS[spec.name as keyof typeof BUILTIN_REPORTERS].extensions[0] ?? '.txt'}`,
        ),
      }
    : {};
  // The same options the CLI gives its reporters: the working directory, verbosity and colour.
  return instantiateReporter(spec.factory, reporterOptions(options, { ...output, ...spec.options }), spec.where);
}
