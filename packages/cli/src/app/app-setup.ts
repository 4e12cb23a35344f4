import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { AgentestError } from '@agentest/kernel';
import type { NormalisedConfig } from '../config/normalise-config.js';
import type { RawAppFlags } from './app-flags.js';

/** The Yao app root of a run and what chose it, when there is one. */
export interface AppRoot {
  dir: string;
  /** `-a`, `$YAO_ROOT`, or the marker file that was found (`app.yao`, `app.json`, `app.jsonc`). */
  foundBy: string;
}

/** What `-a` and `-e` set up: the app root, and the environment file that was loaded. */
export interface AppSetup {
  root?: AppRoot;
  envFile?: string;
}

/**
 * `-a` and `-e` exactly as `yao agent test` treats them. The app root is `-a` (against the working
 * directory), else `$YAO_ROOT`, else the nearest folder holding `app.yao`, `app.json` or `app.jsonc`, up
 * from the `-i` path when it is a file or folder, otherwise from the working directory. The environment
 * file is `-e` (against the working directory), else `<root>/.env`; its variables override those already
 * set. An app without a `.env` loads none, as Yao's loader does; an `-e` that cannot be loaded is refused
 * (see `givenEnvFile`). The variables go into `env`, which
 * the command line's `process.env` is, so the config, connectors and scripts all see them.
 */
export async function setupApp(
  flags: RawAppFlags,
  input: string | undefined,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<AppSetup> {
  const root = await appRoot(flags.app, input, cwd, env);
  const envFile = flags.env !== undefined ? givenEnvFile(flags.env, cwd) : root && resolve(root.dir, '.env');
  if (!envFile || !isFile(envFile)) return root ? { root } : {};
  Object.assign(env, readEnvFile(envFile, flags.env));
  return { ...(root ? { root } : {}), envFile };
}

/**
 * The file `-e` names, which must be a file agentest can read. Yao ignores an `-e` it cannot load (missing, a
 * folder, unreadable): a typo in the path would then run without the keys it holds, so agentest refuses it.
 */
function givenEnvFile(given: string, cwd: string): string {
  const file = resolve(cwd, given);
  let folder: boolean;
  try {
    folder = statSync(file).isDirectory();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw envFileInvalid(given, `${file} does not exist; give a file of KEY=value lines (e.g. -e .env.test)`);
    throw envFileInvalid(given, `could not read ${file}: ${(error as Error).message}`);
  }
  if (folder)
    throw envFileInvalid(
      given,
      `${file} is a folder; give the environment file in it (e.g. -e ${join(given, '.env')})`,
    );
  return file;
}

function envFileInvalid(given: string, problem: string): AgentestError {
  return new AgentestError('FLAG_INVALID', `-e ${given}: ${problem}`, { where: '-e' });
}

async function appRoot(
  app: string | undefined,
  input: string | undefined,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<AppRoot | undefined> {
  if (app !== undefined) {
    const dir = resolve(cwd, app);
    if (!isDirectory(dir))
      throw new AgentestError(
        'FLAG_INVALID',
        `-a ${app}: ${dir} is not a folder; give the Yao app's root folder (e.g. -a ../my-app)`,
        {
          where: '-a',
        },
      );
    return { dir, foundBy: '-a' };
  }
  if (env.YAO_ROOT) return { dir: resolve(cwd, env.YAO_ROOT), foundBy: '$YAO_ROOT' };
  const { findMarkedRoot } = await import('@agentest/plugin-yao-resolver/app-root');
  const path = input === undefined ? undefined : resolve(cwd, input);
  return findMarkedRoot(path !== undefined && existsSync(path) ? path : cwd);
}

/** The variables of an environment file: `given` is what `-e` said, undefined for the app's own `.env`. */
function readEnvFile(file: string, given: string | undefined): NodeJS.Dict<string> {
  try {
    return parseEnv(readFileSync(file, 'utf8'));
  } catch (error) {
    const problem = `could not read ${file}: ${(error as Error).message}`;
    if (given !== undefined) throw envFileInvalid(given, problem);
    throw new AgentestError('FLAG_INVALID', `${problem} (the app's environment file)`, { where: '.env' });
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** `-a` makes the app root where Yao assistants and `scripts.*` resolve, over the config's own `root`. */
export function withAppRoot(config: NormalisedConfig, root: AppRoot | undefined): NormalisedConfig {
  if (root?.foundBy !== '-a') return config;
  const { yao, script } = config.pluginOptions;
  return {
    ...config,
    pluginOptions: { ...config.pluginOptions, yao: { ...yao, root: root.dir }, script: { ...script, root: root.dir } },
  };
}
