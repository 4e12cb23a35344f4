import { existsSync, readFileSync, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { basename, extname, resolve } from 'node:path';
import { AgentestError, isAgentestError } from '@agentest/kernel';
import { errorMessage } from '@agentest/kernel/errors';
import type { Loader } from 'cosmiconfig';
import { importUserModule } from '../import-module.js';
import { mayFindConfig } from './config-presence.js';
import { applyExtends } from './extends.js';

const NAME = 'agentest';

/** Where a config is looked for, in order, in each directory from the working directory up to the project root. */
export const SEARCH_PLACES = [
  'package.json',
  `.${NAME}rc`,
  `.${NAME}rc.json`,
  `.${NAME}rc.yaml`,
  `.${NAME}rc.yml`,
  `.${NAME}rc.js`,
  `.${NAME}rc.ts`,
  `.${NAME}rc.mjs`,
  `.${NAME}rc.cjs`,
  `${NAME}.config.ts`,
  `${NAME}.config.mts`,
  `${NAME}.config.cts`,
  `${NAME}.config.js`,
  `${NAME}.config.mjs`,
  `${NAME}.config.cjs`,
  `${NAME}.config.json`,
  `${NAME}.config.yaml`,
  `${NAME}.config.yml`,
];

export interface LoadedConfig {
  /** The exported value, unvalidated; `{}` when there is no config file. */
  config: unknown;
  /** The file it came from, absent when none was found. */
  filepath?: string;
  /** The base configs its `extends` brought in, in the order loaded. */
  bases: string[];
}

/**
 * Finds and evaluates the config file: `--config <file>` when given, otherwise cosmiconfig's search
 * from `cwd` up to the nearest `package.json`. TypeScript configs are bundled with esbuild, so they
 * may import local `.ts` plugins.
 */
export async function loadConfig(options: { cwd: string; file?: string; searchFrom?: string }): Promise<LoadedConfig> {
  const from = options.searchFrom ?? options.cwd;
  if (!options.file && !mayFindConfig(from, NAME, SEARCH_PLACES)) return { config: {}, bases: [] };
  const { cosmiconfig } = await import('cosmiconfig');
  const explorer = cosmiconfig(NAME, {
    searchStrategy: 'project',
    searchPlaces: SEARCH_PLACES,
    loaders: { '.ts': loadTs, '.mts': loadTs, '.cts': loadTs, '.mjs': loadMjs },
    cache: false,
  });
  if (options.file) {
    const file = resolve(options.cwd, options.file);
    if (!existsSync(file))
      throw new AgentestError('CONFIG_LOAD_FAILED', `--config ${options.file}: file not found (looked at ${file})`, {
        where: '--config',
      });
    const found = await evaluate(file, () => explorer.load(file));
    return { ...(await applyExtends(found?.config ?? {}, file, loadBase)), filepath: file };
  }
  const found = await evaluate(from, () => explorer.search(from));
  return found
    ? { ...(await applyExtends(found.config ?? {}, found.filepath, loadBase)), filepath: found.filepath }
    : { config: {}, bases: [] };

  async function loadBase(file: string): Promise<unknown> {
    return (await evaluate(file, () => explorer.load(file)))?.config ?? {};
  }
}

async function evaluate<T>(where: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isAgentestError(error)) throw error;
    const file = (error as { filepath?: string }).filepath ?? fileIn(errorMessage(error)) ?? where;
    const json = jsonSyntaxError(error, file);
    throw new AgentestError(
      'CONFIG_LOAD_FAILED',
      json ?? `${file}: the config could not be loaded: ${firstLine(errorMessage(error))}`,
      { where: file, cause: error, hint: loadHint(file) },
    );
  }
}

/**
 * An ES module config is imported with its modification time in the URL: Node caches modules by URL,
 * and `--watch` loads the config again after it is edited.
 */
const loadMjs: Loader = async (filepath) => {
  const url = pathToFileURL(filepath);
  url.search = `?mtime=${statSync(filepath).mtimeMs}`;
  return ((await import(url.href)) as { default?: unknown }).default;
};

/** TypeScript configs go through esbuild, so they may import local `.ts` plugins. */
const loadTs: Loader = async (filepath) => {
  let mod: Record<string, unknown>;
  try {
    mod = await importUserModule(filepath);
  } catch (error) {
    if (isAgentestError(error)) throw error;
    throw new AgentestError(
      'CONFIG_LOAD_FAILED',
      `${filepath}: evaluating the config failed: ${firstLine(errorMessage(error))}`,
      { where: filepath, cause: error, hint: loadHint(filepath) },
    );
  }
  return mod.default ?? mod;
};

/** How to see the underlying error for this kind of config file: a TypeScript file is not run with `node`. */
function loadHint(file: string): string {
  const name = basename(file);
  const ext = extname(file);
  if (/^\.[cm]?ts$/.test(ext)) return `Run the config on its own (\`npx tsx ${name}\`) to see the underlying error.`;
  if (/^\.[cm]?js$/.test(ext)) return `Run the config on its own (\`node ${name}\`) to see the underlying error.`;
  if (name === 'package.json') return 'Correct the JSON of package.json (its "agentest" key holds the config).';
  if (ext === '.json') return `Correct the JSON syntax of ${name} at the position in the message.`;
  return `Correct the YAML (or JSON) syntax of ${name} at the line in the message.`;
}

/**
 * A JSON config's syntax error as `file:line:column: reason`. The parser's own message starts with a
 * line naming only the file, and goes on to quote the text around the error (a key written in the
 * config included), so only its reason and position are kept.
 */
function jsonSyntaxError(error: unknown, file: string): string | undefined {
  if ((error as Error | undefined)?.name !== 'JSONError') return undefined;
  // `Expected ',' or '}' after property value in JSON at position 42 while parsing '…'`, or without a position.
  const found = /\n([^\n]*JSON(?: input)?)(?: at position (\d+))? while parsing/.exec(errorMessage(error));
  if (!found) return undefined;
  // V8 quotes the text around an unexpected token (`Unexpected token '}', "{"a": tru}" is not valid JSON`).
  const reason = found[1]!.trim().replace(/^(Unexpected token '.*?'), .* is not valid JSON$/, '$1: not valid JSON');
  if (found[2] === undefined) return `${file}: ${reason}`;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return `${file}: ${reason} at position ${found[2]}`;
  }
  const before = text.slice(0, Number(found[2]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `${file}:${line}:${column}: ${reason}`;
}

function firstLine(text: string): string {
  return text.split('\n').find((l) => l.trim()) ?? text;
}

function fileIn(message: string): string | undefined {
  return /((?:\/|[A-Za-z]:\\)[^\s:]+?\.(?:json|ya?ml|[cm]?[jt]s)|[^\s:]*agentestrc[^\s:]*)/.exec(message)?.[1];
}
