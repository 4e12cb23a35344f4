import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import * as z from 'zod';
import { AgentestError, isAgentestError, type AgentestPlugin } from '@agentest/kernel';
import { errorMessage } from '@agentest/kernel/errors';
import { lazy, parseDuration, withoutUnit } from '@agentest/common';
import { didYouMean } from '@agentest/kernel/errors';
import type { ConnectorConfig } from '@agentest/connectors';
import type { AgentConfig } from '@agentest/plugin-agent';
import { normaliseReporters, type ReporterSpec } from './reporter-specs.js';
import { normalisePlugins } from './plugin-specs.js';
import { COVERAGE_KEYS, coverageShape, type CoverageConfig } from '@agentest/plugin-script/coverage-options';
import {
  HISTORY_KEYS,
  SEQUENTIAL_KEYS,
  historyShape,
  sequentialShape,
  type HistorySettings,
  type SequentialSettings,
} from './history-settings.js';

/** One suite of `test.suites`: the `-i` input and the `-n` agent it runs with. */
export interface SuiteEntry {
  input: string;
  agent?: string;
}

/** The config after validation: every reference loaded, every duration parsed, every path absolute. */
export interface NormalisedConfig {
  file?: string;
  /** The base configs `file` extends, in the order loaded: a change in one changes the run as one in `file` does. */
  bases: string[];
  /** The config file's directory (the working directory when there is none); relative paths start here. */
  dir: string;
  plugins: AgentestPlugin[];
  /** Undefined when the config names no reporters. */
  reporters?: ReporterSpec[];
  agents: Record<string, AgentConfig>;
  connectors: Record<string, ConnectorConfig>;
  /** `projects`, as absolute folders. */
  projects: string[];
  test: {
    /** What `agentest test` runs without `-i`, in the config's folder. */
    suites?: SuiteEntry[];
    parallel?: number;
    timeoutMs?: number;
    /** A fixed number of runs per case, or `auto` for the sequential test. */
    runs?: number | 'auto';
    /** `--runs auto`'s SPRT settings and maximum. */
    sequential?: SequentialSettings;
    user?: string;
    team?: string;
    ctx?: string;
    failFast?: boolean;
    include?: string[];
  };
  thresholds: Record<string, number>;
  /** Where the run history goes and how much of it is kept. */
  history: HistorySettings;
  /**
   * Options for the default plugins, keyed as in the config (`script`, `yao`, `kit`); `jsonl` holds
   * the config's `jsonl` and `files` sections, with `files.allow` made absolute.
   */
  cassettes: { mode?: 'off' | 'record' | 'replay' | 'auto'; dir?: string };
  prices: Record<string, { input: number; output: number }>;
  budget: { maxCost?: number; maxTokens?: number };
  /** The `coverage` section as written; its globs and folder are relative to `dir`. */
  coverage: CoverageConfig;
  pluginOptions: {
    script?: Record<string, unknown>;
    yao?: Record<string, unknown>;
    kit?: Record<string, unknown>;
    jsonl?: Record<string, unknown>;
  };
}

const TOP_LEVEL = [
  'plugins',
  'reporters',
  'agents',
  'connectors',
  'projects',
  'test',
  'thresholds',
  'script',
  'yao',
  'kit',
  'jsonl',
  'files',
  'history',
  'cassettes',
  'prices',
  'budget',
  'coverage',
] as const;
const TEST_KEYS = [
  'suites',
  'parallel',
  'timeout',
  'runs',
  'sequential',
  'user',
  'team',
  'ctx',
  'failFast',
  'include',
] as const;
const JSONL_KEYS = ['extraKeys', 'maxDepth', 'maxLineBytes'] as const;
const FILES_KEYS = ['allow', 'maxBytes'] as const;
const CASSETTES_KEYS = ['mode', 'dir'] as const;
const BUDGET_KEYS = ['maxCost', 'maxTokens'] as const;

/** The config's types, built on first use: an empty config (or none) needs no validation. */
export const configShape = lazy(() => {
  const positiveInt = z.number().int().min(1);
  const record = z.record(z.string(), z.unknown());
  return z.object({
    plugins: z.array(z.unknown()).optional(),
    reporters: z.array(z.unknown()).optional(),
    agents: z.record(z.string(), z.unknown()).optional(),
    connectors: z.record(z.string(), record).optional(),
    projects: z.array(z.string().min(1)).optional(),
    test: z
      .object({
        suites: z
          .array(
            z.union([
              z.string().min(1),
              z.strictObject({ input: z.string().min(1), agent: z.string().min(1).optional() }),
            ]),
          )
          .optional(),
        parallel: positiveInt.optional(),
        timeout: z.union([z.string(), z.number()]).optional(),
        runs: z.union([positiveInt, z.literal('auto')]).optional(),
        sequential: sequentialShape().optional(),
        user: z.string().min(1).optional(),
        team: z.string().min(1).optional(),
        ctx: z.string().min(1).optional(),
        failFast: z.boolean().optional(),
        include: z.union([z.string(), z.array(z.string())]).optional(),
      })
      .optional(),
    thresholds: z.record(z.string(), z.number()).optional(),
    script: record.optional(),
    yao: record.optional(),
    kit: record.optional(),
    jsonl: z
      .object({
        extraKeys: z.array(z.string().min(1)).optional(),
        maxDepth: z.number().int().min(2).optional(),
        maxLineBytes: z.number().int().min(1024).optional(),
      })
      .optional(),
    files: z
      .object({
        allow: z.array(z.string().min(1)).optional(),
        maxBytes: positiveInt.optional(),
      })
      .optional(),
    history: historyShape().optional(),
    cassettes: z
      .object({ mode: z.enum(['off', 'record', 'replay', 'auto']).optional(), dir: z.string().min(1).optional() })
      .optional(),
    prices: z.record(z.string(), z.object({ input: z.number().min(0), output: z.number().min(0) })).optional(),
    budget: z.object({ maxCost: z.number().positive().optional(), maxTokens: positiveInt.optional() }).optional(),
    coverage: coverageShape().optional(),
  });
});
type ParsedConfig = z.infer<ReturnType<typeof configShape>>;

/** Every file the config was read from: the config file, then the bases it extends. */
export function configFiles(config: Pick<NormalisedConfig, 'file' | 'bases'>): string[] {
  return config.file ? [config.file, ...config.bases] : [];
}

/**
 * Validates the config and loads what it refers to, before any test runs: unknown keys (with a
 * "did you mean"), wrong types, plugins that are not plugins, reporters that cannot be found.
 */
export async function normaliseConfig(
  raw: unknown,
  options: { file?: string; bases?: readonly string[]; cwd: string },
): Promise<NormalisedConfig> {
  const label = options.file ?? 'config';
  const dir = options.file ? dirname(options.file) : options.cwd;
  if (raw === null || raw === undefined) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw configError(
      label,
      '',
      `expected an object (export default defineConfig({ … })), got ${Array.isArray(raw) ? 'an array' : typeof raw}`,
    );
  }
  checkSections(label, raw as Record<string, unknown>);
  // `{}` is what the schema makes of an empty config (a test holds it to that), so none is built for it.
  const parsed = Object.keys(raw as object).length
    ? configShape().safeParse(raw)
    : { success: true as const, data: {} };
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw configError(label, issue.path.join('.'), issue.message);
  }
  const config = parsed.data;
  // The keys plugins declare are known only once the plugins are loaded; every other key is a mistake.
  const plugins = await normalisePlugins(config.plugins ?? [], dir, label);
  const given = raw as Record<string, unknown>;
  checkKeys(label, '', given, [...TOP_LEVEL, ...configurePlugins(plugins, given, label)]);
  return {
    ...(options.file ? { file: options.file } : {}),
    bases: [...(options.bases ?? [])],
    dir,
    plugins,
    ...(config.reporters ? { reporters: await normaliseReporters(config.reporters, dir, label) } : {}),
    agents: (config.agents ?? {}) as Record<string, AgentConfig>,
    connectors: (config.connectors ?? {}) as Record<string, ConnectorConfig>,
    projects: (config.projects ?? []).map((path, i) => projectDir(path, dir, `${label}: projects[${i}]`)),
    test: {
      ...(config.test?.suites
        ? { suites: config.test.suites.map((entry) => (typeof entry === 'string' ? { input: entry } : entry)) }
        : {}),
      ...pick(config.test, ['parallel', 'runs', 'sequential', 'user', 'team', 'failFast']),
      ...(config.test?.timeout !== undefined ? { timeoutMs: duration(config.test.timeout, label) } : {}),
      ...(config.test?.ctx ? { ctx: resolve(dir, config.test.ctx) } : {}),
      ...(config.test?.include ? { include: [config.test.include].flat() } : {}),
    },
    thresholds: config.thresholds ?? {},
    history: { ...config.history, ...(config.history?.dir ? { dir: resolve(dir, config.history.dir) } : {}) },
    cassettes: {
      ...(config.cassettes?.mode ? { mode: config.cassettes.mode } : {}),
      ...(config.cassettes?.dir ? { dir: resolve(dir, config.cassettes.dir) } : {}),
    },
    prices: config.prices ?? {},
    budget: config.budget ?? {},
    coverage: config.coverage ?? {},
    pluginOptions: { ...pick(config, ['script', 'yao', 'kit']), ...jsonlOptions(config, dir) },
  };
}

/** The JSONL loader's options: the `jsonl` section, and `files` with its folders relative to the config. */
function jsonlOptions(config: ParsedConfig, dir: string): { jsonl?: Record<string, unknown> } {
  if (!config.jsonl && !config.files) return {};
  const files = config.files && {
    ...config.files,
    ...(config.files.allow ? { allow: config.files.allow.map((path) => resolve(dir, path)) } : {}),
  };
  return { jsonl: { ...config.jsonl, ...(files ? { files } : {}) } };
}

function projectDir(path: string, dir: string, where: string): string {
  const folder = resolve(dir, path);
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new AgentestError('CONFIG_INVALID', `${where}: "${path}" is not a folder (looked at ${folder})`, { where });
  return folder;
}

/**
 * Hands each config plugin the section of its `configKey`, and answers the keys they declared. A plugin
 * that rejects its section is a configuration error naming the key.
 */
function configurePlugins(plugins: readonly AgentestPlugin[], raw: Record<string, unknown>, label: string): string[] {
  const declared: string[] = [];
  for (const plugin of plugins) {
    const key = plugin.configKey;
    if (key === undefined) continue;
    if ((TOP_LEVEL as readonly string[]).includes(key))
      throw new AgentestError(
        'PLUGIN_INVALID',
        `plugin "${plugin.name}" declares the config key "${key}", which is agentest's own`,
        {
          where: plugin.name,
        },
      );
    declared.push(key);
    if (raw[key] === undefined) continue;
    try {
      plugin.configure?.(raw[key]);
    } catch (error) {
      if (isAgentestError(error)) throw error;
      throw configError(label, key, `plugin "${plugin.name}" refused it: ${errorMessage(error)}`);
    }
  }
  return declared;
}

/** Unknown keys in each section, `test.sequential` included, with a "did you mean". */
function checkSections(label: string, raw: Record<string, unknown>): void {
  const test = raw.test as Record<string, unknown> | undefined;
  const sections = [
    ['test', raw.test, TEST_KEYS],
    ['test.sequential', typeof test === 'object' ? test?.sequential : undefined, SEQUENTIAL_KEYS],
    ['jsonl', raw.jsonl, JSONL_KEYS],
    ['files', raw.files, FILES_KEYS],
    ['history', raw.history, HISTORY_KEYS],
    ['cassettes', raw.cassettes, CASSETTES_KEYS],
    ['budget', raw.budget, BUDGET_KEYS],
    ['coverage', raw.coverage, COVERAGE_KEYS],
  ] as const;
  for (const [name, section, keys] of sections)
    if (section && typeof section === 'object' && !Array.isArray(section))
      checkKeys(label, `${name}.`, section as Record<string, unknown>, keys);
}

function checkKeys(label: string, prefix: string, value: Record<string, unknown>, known: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    throw configError(
      label,
      `${prefix}${key}`,
      `unknown key${didYouMean(key, known)}; known keys: ${known.join(', ')}`,
    );
  }
}

/** `test.timeout` is a Go duration with a unit; a bare number (`30`, `"30"`) is an error, never 30 ms. */
function duration(value: string | number, label: string): number {
  const unitless = withoutUnit(value);
  if (unitless) throw configError(label, 'test.timeout', `${JSON.stringify(value)} has no unit; ${unitless}`);
  try {
    return parseDuration(value, 'test.timeout');
  } catch {
    throw configError(
      label,
      'test.timeout',
      `invalid duration ${JSON.stringify(value)}; use a form like "30s", "2m30s" or "500ms"`,
    );
  }
}

function configError(label: string, path: string, problem: string): AgentestError {
  const where = path ? `${label}: ${path}` : label;
  return new AgentestError('CONFIG_INVALID', `${where}: ${problem}`, { where });
}

function pick<T extends object, K extends keyof T>(value: T | undefined, keys: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const key of keys) if (value?.[key] !== undefined) out[key] = value[key];
  return out;
}
