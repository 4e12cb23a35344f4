import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import {
  AgentestError,
  checkPluginShape,
  defineReporter,
  isAgentestError,
  type AgentestPlugin,
  type Reporter,
} from '@agentest/kernel';
import { errorMessage } from '@agentest/kernel/errors';
import { didYouMean } from '@agentest/kernel/errors';
import { importUserModule } from '../import-module.js';
import { looksLikePath, packageEntry } from '../resolve-package.js';
import {
  BUILTIN_REPORT_IDS,
  builtinList,
  isBuiltinReporter,
  loadBuiltinReporter,
  type BuiltinReporterName,
  type ReporterFactory,
} from '../reporter-registry.js';

/** A reporter the config (or `--reporter`) asked for, loaded and ready to be instantiated. */
export type ReporterSpec =
  | {
      kind: 'builtin';
      name: BuiltinReporterName;
      options: Record<string, unknown>;
      factory: ReporterFactory;
      where: string;
    }
  | { kind: 'module'; name: string; options: Record<string, unknown>; factory: ReporterFactory; where: string }
  | { kind: 'plugin'; name: string; plugin: AgentestPlugin };

/** Resolves `--reporter` values the same way as config entries, relative to the working directory. */
export function normaliseReporters(entries: readonly unknown[], dir: string, label: string): Promise<ReporterSpec[]> {
  return Promise.all(entries.map((entry, i) => normaliseReporter(entry, dir, `${label}: reporters[${i}]`)));
}

/** One config entry or `--reporter` value, loaded; `where` names it in errors. */
export async function normaliseReporter(entry: unknown, dir: string, where: string): Promise<ReporterSpec> {
  if (typeof entry === 'string') return reporterByName(entry, {}, dir, where);
  // A factory written in the config: called, as a package's is, with the options every reporter gets.
  if (typeof entry === 'function')
    return { kind: 'module', name: entry.name || 'reporter', options: {}, factory: entry as ReporterFactory, where };
  if (Array.isArray(entry)) {
    const [name, options = {}] = entry as [unknown, unknown];
    if (
      typeof name !== 'string' ||
      !options ||
      typeof options !== 'object' ||
      Array.isArray(options) ||
      entry.length > 2
    ) {
      throw reporterError(where, `expected [name, options], got ${JSON.stringify(entry)}`);
    }
    return reporterByName(name, options as Record<string, unknown>, dir, where);
  }
  if (entry && typeof entry === 'object') {
    const value = entry as Partial<AgentestPlugin & Reporter>;
    if (typeof value.apply === 'function') {
      checkPluginShape(value, where);
      return { kind: 'plugin', name: value.name!, plugin: value as AgentestPlugin };
    }
    if (typeof value.name === 'string')
      return { kind: 'plugin', name: value.name, plugin: defineReporter(value as Reporter) };
  }
  throw reporterError(
    where,
    `expected a reporter name, [name, options], a path, a factory, a Reporter object or a plugin, got ${describe(entry)}`,
  );
}

async function reporterByName(
  name: string,
  given: Record<string, unknown>,
  dir: string,
  where: string,
): Promise<ReporterSpec> {
  const options = typeof given.output === 'string' ? { ...given, output: resolve(dir, given.output) } : given;
  const builtin = BUILTIN_REPORT_IDS[name] ?? name;
  if (isBuiltinReporter(builtin))
    return { kind: 'builtin', name: builtin, options, factory: await loadBuiltinReporter(builtin), where };
  const file = await reporterFile(name, dir, where);
  let mod: Record<string, unknown>;
  try {
    mod = await importUserModule(file);
  } catch (error) {
    if (isAgentestError(error)) throw error;
    throw new AgentestError(
      'REPORTER_NOT_FOUND',
      `${where}: reporter module "${name}" failed to load: ${errorMessage(error)}`,
      { where, cause: error },
    );
  }
  const exported = mod.default ?? mod;
  if (typeof exported === 'function')
    return { kind: 'module', name, options, factory: exported as ReporterFactory, where };
  const spec = await normaliseReporter(exported, dir, `${where} (${name})`).catch((error: unknown) => {
    throw isAgentestError(error) && error.code === 'REPORTER_NOT_FOUND'
      ? new AgentestError(
          'REPORTER_NOT_FOUND',
          `${where}: "${name}" must default-export a reporter factory, a Reporter object or a plugin`,
          { where },
        )
      : error;
  });
  return spec;
}

/** A reporter given by path (relative to `dir`) or by the name of a package installed where the config is. */
async function reporterFile(name: string, dir: string, where: string): Promise<string> {
  if (looksLikePath(name)) {
    const file = isAbsolute(name) ? name : resolve(dir, name);
    if (!existsSync(file))
      throw new AgentestError(
        'REPORTER_NOT_FOUND',
        `${where}: reporter module "${name}" not found (looked at ${file})`,
        { where },
      );
    return file;
  }
  const file = await packageEntry(dir, name, where, 'REPORTER_NOT_FOUND', 'reporter');
  if (file) return file;
  const known = Object.keys(BUILTIN_REPORT_IDS).concat(builtinList().split(', '));
  throw new AgentestError(
    'REPORTER_NOT_FOUND',
    `${where}: unknown reporter "${name}"${didYouMean(name, known)}; built-in reporters: ${builtinList()}, or give a path to a module or the name of a package installed where the config is (none is, from ${dir})`,
    { where },
  );
}

function reporterError(where: string, problem: string): AgentestError {
  return new AgentestError('REPORTER_NOT_FOUND', `${where}: ${problem}`, { where });
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
