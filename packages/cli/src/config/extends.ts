import { existsSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { AgentestError } from '@agentest/kernel';
import { BUILTIN_REPORT_IDS, isBuiltinReporter } from '../reporter-registry.js';
import { looksLikePath, packageEntry, resolvePackageFrom } from '../resolve-package.js';
import { isPlainObject, mergeConfigs } from './merge-configs.js';

/** Evaluates one config file (any format the search accepts) to its exported value. */
export type EvaluateConfig = (file: string) => Promise<unknown>;

/**
 * Applies `extends: './base.config.ts'` (a path relative to the config, a package name, or a list of
 * them, applied in order): each base is loaded (its own `extends` first), its relative input paths made
 * absolute against its folder, and merged under the config that extends it (see `mergeConfigs`).
 * A config that extends itself, directly or through others, is an error naming the chain of files.
 * Each base file is evaluated once, so one that two others extend brings the same plugin objects twice,
 * and the merge keeps them once. Answers the merged config and every base file, in the order loaded.
 */
export async function applyExtends(
  config: unknown,
  file: string,
  evaluate: EvaluateConfig,
): Promise<{ config: unknown; bases: string[] }> {
  const loaded = new Map<string, Promise<unknown>>();
  const once: EvaluateConfig = (base) => {
    if (!loaded.has(base)) loaded.set(base, evaluate(base));
    return loaded.get(base)!;
  };
  const merged = await extendConfig(config, file, once, []);
  return { config: merged, bases: [...loaded.keys()] };
}

async function extendConfig(
  config: unknown,
  file: string,
  evaluate: EvaluateConfig,
  chain: readonly string[],
): Promise<unknown> {
  if (!isPlainObject(config) || config.extends === undefined) return config;
  const { extends: refs, ...own } = config;
  const where = `${file}: extends`;
  const list = typeof refs === 'string' ? [refs] : refs;
  if (!Array.isArray(list) || list.some((ref) => typeof ref !== 'string' || !ref))
    throw new AgentestError(
      'CONFIG_INVALID',
      `${where}: expected a config path or package name, or a list of them, got ${JSON.stringify(refs)}`,
      { where },
    );
  const seen = [...chain, file];
  let merged: Record<string, unknown> = {};
  for (const [i, ref] of (list as string[]).entries()) {
    const base = await baseFile(ref, dirname(file), list.length > 1 ? `${where}[${i}]` : where);
    if (seen.includes(base))
      throw new AgentestError(
        'CONFIG_INVALID',
        `${where}: the configs extend each other in a cycle: ${[...seen, base].map((f) => show(f, seen[0]!)).join(' → ')}`,
        { where, hint: 'Remove one of the extends entries so that the chain of configs ends.' },
      );
    const loaded = await extendConfig(await evaluate(base), base, evaluate, seen);
    if (!isPlainObject(loaded))
      throw new AgentestError('CONFIG_INVALID', `${base} (extended by ${file}): expected a config object`, {
        where: base,
      });
    merged = mergeConfigs(merged, await resolveModules(rebase(loaded, dirname(base)), base));
  }
  return mergeConfigs(merged, own);
}

/** A path (`./`, `../`, absolute) is relative to the extending config; anything else is a package name. */
async function baseFile(ref: string, dir: string, where: string): Promise<string> {
  if (/^\.{1,2}[\\/]/.test(ref) || isAbsolute(ref)) {
    const file = resolve(dir, ref);
    if (!existsSync(file))
      throw new AgentestError('CONFIG_LOAD_FAILED', `${where}: "${ref}" not found (looked at ${file})`, { where });
    return file;
  }
  const found = await resolvePackageFrom(dir, ref);
  if ('file' in found) return found.file;
  const problem = 'problem' in found ? found.problem : `no package "${ref}" is installed where the config is (${dir})`;
  throw new AgentestError('CONFIG_LOAD_FAILED', `${where}: "${ref}" cannot be loaded: ${problem}`, {
    where,
    hint: 'A path to a config file starts with ./ or ../; anything else is the name of an installed package.',
  });
}

/**
 * The packages a base names in `plugins` and `reporters`, found as Node's `import` would from the base
 * file itself (a shared config package brings its own plugins), not from the project extending it.
 * Built-in reporter names stay names.
 */
async function resolveModules(config: Record<string, unknown>, base: string): Promise<Record<string, unknown>> {
  const out = { ...config };
  for (const [key, kind] of [
    ['plugins', 'plugin'],
    ['reporters', 'reporter'],
  ] as const) {
    if (!Array.isArray(config[key])) continue;
    out[key] = await Promise.all(
      (config[key] as unknown[]).map(async (entry, i) => {
        const name = Array.isArray(entry) ? entry[0] : entry;
        if (typeof name !== 'string' || looksLikePath(name)) return entry;
        if (kind === 'reporter' && isBuiltinReporter(BUILTIN_REPORT_IDS[name] ?? name)) return entry;
        const where = `${base}: ${key}[${i}]`;
        const code = kind === 'plugin' ? 'PLUGIN_INVALID' : 'REPORTER_NOT_FOUND';
        const file = await packageEntry(dirname(base), name, where, code, kind);
        if (!file)
          throw new AgentestError(
            code,
            `${where}: ${kind} package "${name}" is not installed where that config is (looked from ${dirname(base)}); install it there (npm i -D ${name}) or give a path starting with ./`,
            { where },
          );
        return Array.isArray(entry) ? [file, ...entry.slice(1)] : file;
      }),
    );
  }
  return out;
}

/**
 * The base's inputs resolved against the base's folder: reporter modules given by path, `test.ctx`,
 * `test.suites` that are files there, `projects`, `files.allow`, `script.root` and `yao.root`. Outputs and
 * stores (a reporter's `output`, `history.dir`, `cassettes.dir`) stay relative to the project being run.
 */
function rebase(config: Record<string, unknown>, dir: string): Record<string, unknown> {
  const path = (value: unknown) =>
    typeof value === 'string' && value && !isAbsolute(value) ? resolve(dir, value) : value;
  const ifFile = (value: unknown) =>
    typeof value === 'string' && existsSync(resolve(dir, value)) ? path(value) : value;
  const modulePath = (value: unknown) =>
    typeof value === 'string' && /^\.{1,2}[\\/]/.test(value) ? path(value) : value;
  const out: Record<string, unknown> = { ...config };
  // Reporters (and plugins, where named by a string) given by path, alone or as `[path, options]`.
  const moduleEntry = (value: unknown) =>
    Array.isArray(value) && typeof value[0] === 'string'
      ? [modulePath(value[0]), ...value.slice(1)]
      : modulePath(value);
  for (const key of ['reporters', 'plugins'] as const)
    if (Array.isArray(config[key])) out[key] = (config[key] as unknown[]).map(moduleEntry);
  if (Array.isArray(config.projects)) out.projects = config.projects.map(path);
  if (isPlainObject(config.test)) {
    const test = { ...config.test };
    if (test.ctx !== undefined) test.ctx = path(test.ctx);
    if (Array.isArray(test.suites))
      test.suites = test.suites.map((entry) =>
        isPlainObject(entry) ? { ...entry, input: ifFile(entry.input) } : ifFile(entry),
      );
    out.test = test;
  }
  if (isPlainObject(config.files) && Array.isArray(config.files.allow))
    out.files = { ...config.files, allow: config.files.allow.map(path) };
  for (const key of ['script', 'yao'] as const)
    if (isPlainObject(config[key]) && config[key].root !== undefined)
      out[key] = { ...config[key], root: path(config[key].root) };
  return out;
}

function show(file: string, from: string): string {
  const rel = relative(dirname(from), file);
  return rel && !rel.startsWith('..') ? rel : file;
}
