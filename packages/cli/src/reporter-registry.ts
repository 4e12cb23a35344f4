import { extname } from 'node:path';
import {
  AgentestError,
  checkPluginShape,
  defineReporter,
  isAgentestError,
  type AgentestPlugin,
  type Reporter,
} from '@agentest/kernel';
import { errorMessage } from '@agentest/kernel/errors';
import { importPackage } from './import-module.js';

export type ReporterFactory = (options: Record<string, unknown>) => AgentestPlugin;
/** A format package's `createReporter`: the same reporter as a plain object, for another reporter to drive. */
export type PlainReporterFactory = (options: Record<string, unknown>) => Reporter;

interface BuiltinReporter {
  package: string;
  /** `import()` of the package, written out so bundlers see which module it is. */
  load: () => Promise<object>;
  /** `-o` extensions that select this reporter. */
  extensions: readonly string[];
  /** Whether it writes a file (and so needs an `output`). */
  writesFile: boolean;
  description: string;
}

/**
 * The reporters agentest knows by name. Each is a package loaded only when a run asks for it, so
 * one that is not installed fails with a clear REPORTER_NOT_FOUND instead of breaking the CLI.
 */
export const BUILTIN_REPORTERS = {
  console: {
    package: '@agentest/reporter-console',
    load: () => import('@agentest/reporter-console'),
    extensions: [],
    writesFile: false,
    description: 'the terminal layout (always on)',
  },
  jsonl: {
    package: '@agentest/reporter-jsonl',
    load: () => import('@agentest/reporter-jsonl'),
    extensions: ['.jsonl'],
    writesFile: true,
    description: 'the event stream, one JSON object per line',
  },
  json: {
    package: '@agentest/reporter-json',
    load: () => import('@agentest/reporter-json'),
    extensions: ['.json'],
    writesFile: true,
    description: 'the full report with Yao field names',
  },
  markdown: {
    package: '@agentest/reporter-markdown',
    load: () => import('@agentest/reporter-markdown'),
    extensions: ['.md', '.markdown'],
    writesFile: true,
    description: 'a Markdown report',
  },
  html: {
    package: '@agentest/reporter-html',
    load: () => import('@agentest/reporter-html'),
    extensions: ['.html', '.htm'],
    writesFile: true,
    description: 'a self-contained interactive HTML report',
  },
  junit: {
    package: '@agentest/reporter-junit',
    load: () => import('@agentest/reporter-junit'),
    extensions: ['.xml'],
    writesFile: true,
    description: 'JUnit XML for CI test tabs',
  },
  summary: {
    package: '@agentest/reporter-summary',
    load: () => import('@agentest/reporter-summary'),
    extensions: ['.txt'],
    writesFile: true,
    description: 'a brief text summary',
  },
  github: {
    package: '@agentest/reporter-github',
    load: () => import('@agentest/reporter-github'),
    extensions: [],
    writesFile: false,
    description: 'GitHub Actions annotations and job summary (on by itself when GITHUB_ACTIONS is set)',
  },
  llm: {
    package: '@agentest/reporter-llm',
    load: () => import('@agentest/reporter-llm'),
    extensions: [],
    writesFile: true,
    description: 'a report written by a reporter agent (-r <agent-id>)',
  },
} as const satisfies Record<string, BuiltinReporter>;

export type BuiltinReporterName = keyof typeof BUILTIN_REPORTERS;

/** `-r report.json|report.markdown|report.html|report.summary`: built-in formats, no agent involved. */
export const BUILTIN_REPORT_IDS: Record<string, BuiltinReporterName> = {
  'report.json': 'json',
  'report.markdown': 'markdown',
  'report.html': 'html',
  'report.summary': 'summary',
};

export function isBuiltinReporter(name: string): name is BuiltinReporterName {
  return Object.hasOwn(BUILTIN_REPORTERS, name);
}

/** The file reporter an output path's extension selects (`.html` → `html`), if any. */
export function reporterForPath(path: string): BuiltinReporterName | undefined {
  const ext = extname(path).toLowerCase();
  return (Object.keys(BUILTIN_REPORTERS) as BuiltinReporterName[]).find((name) =>
    (BUILTIN_REPORTERS[name].extensions as readonly string[]).includes(ext),
  );
}

export function knownExtensions(): string[] {
  return Object.values(BUILTIN_REPORTERS).flatMap((r) => [...r.extensions]);
}

const cache = new Map<string, Promise<unknown>>();

/** Loads a built-in reporter's factory (its package's default export). */
export function loadBuiltinReporter(name: BuiltinReporterName): Promise<ReporterFactory> {
  return loadExport(name, 'default') as Promise<ReporterFactory>;
}

/** Loads a built-in file reporter's plain reporter factory (its package's `createReporter`). */
export function loadPlainReporter(name: BuiltinReporterName): Promise<PlainReporterFactory> {
  return loadExport(name, 'createReporter') as Promise<PlainReporterFactory>;
}

function loadExport(name: BuiltinReporterName, exported: string): Promise<unknown> {
  const key = `${name}#${exported}`;
  let pending = cache.get(key);
  if (!pending) {
    pending = load(name, exported);
    cache.set(key, pending);
    pending.catch(() => cache.delete(key));
  }
  return pending;
}

async function load(name: BuiltinReporterName, exported: string): Promise<unknown> {
  const spec = BUILTIN_REPORTERS[name].package;
  const { module, missing } = await importPackage(BUILTIN_REPORTERS[name].load);
  if (!module)
    throw new AgentestError(
      'REPORTER_NOT_FOUND',
      `reporter "${name}" is not available: the package ${spec} could not be loaded (${missing}); install it, or pick another reporter`,
      { where: name },
    );
  const factory = module[exported];
  if (typeof factory !== 'function')
    throw new AgentestError(
      'REPORTER_NOT_FOUND',
      `reporter "${name}": ${spec} has no ${exported === 'default' ? 'default-exported' : exported} factory function`,
      { where: name },
    );
  return factory;
}

/** What every reporter is given besides its own options, by the CLI and by `createDefaultKernel` alike. */
export interface InjectedReporterOptions {
  cwd: string;
  verbose?: boolean;
  /** `false` turns colour off; left out, each reporter follows the colour policy (`NO_COLOR`, a terminal). */
  color?: boolean;
}

/** The options a reporter's factory gets, whatever form asked for it (a name, a path, a package); its own win. */
export function reporterOptions(
  injected: InjectedReporterOptions,
  options: Record<string, unknown>,
): Record<string, unknown> {
  const { cwd, verbose = false, color } = injected;
  return { cwd, verbose, ...(color === undefined ? {} : { color }), ...options };
}

/**
 * Calls a reporter's factory. A factory that throws was given options it cannot use (or is broken):
 * a configuration error naming the entry (`reporters[1]`, `-o`), not an invariant of agentest. A factory
 * may return a plugin or, as a module may export, a plain `Reporter` object; anything else is refused
 * naming the entry, not as "plugin #N" once the kernel sees it.
 */
export function instantiateReporter(
  factory: ReporterFactory,
  options: Record<string, unknown>,
  where: string,
): AgentestPlugin {
  let made: unknown;
  try {
    made = factory(options);
  } catch (error) {
    if (isAgentestError(error)) throw error;
    throw new AgentestError('REPORTER_INVALID', `${where}: the reporter failed to start: ${errorMessage(error)}`, {
      where,
      cause: error,
    });
  }
  return asReporterPlugin(made, where);
}

function asReporterPlugin(made: unknown, where: string): AgentestPlugin {
  const value = made as Partial<AgentestPlugin & Reporter> | null;
  if (value && typeof value === 'object' && typeof value.apply === 'function') {
    checkPluginShape(value, where);
    return value as AgentestPlugin;
  }
  if (value && typeof value === 'object' && typeof value.name === 'string' && !('then' in value))
    return defineReporter(value as Reporter);
  const got = value === null ? 'null' : typeof value === 'object' && 'then' in value ? 'a promise' : typeof value;
  throw new AgentestError(
    'REPORTER_INVALID',
    `${where}: the reporter factory returned ${got}; return a plugin (\`defineReporter({ name, onResult, … })\`) or a Reporter object with a "name", synchronously`,
    { where },
  );
}

export function builtinList(): string {
  return Object.keys(BUILTIN_REPORTERS).join(', ');
}
