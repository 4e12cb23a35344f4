import { readFile, stat } from 'node:fs/promises';
import { dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';
import * as z from 'zod';
import { lazy } from '@agentest/common';
import { AgentestError, isAgentestError, type Agent } from '@agentest/kernel';
import { loadConnectors } from './load-connectors.js';
import { formatIssues } from './shapes.js';

const FILE_NAMES = ['mock.yaml', 'mock.yml', 'mock.json'];

/**
 * The replies file's outer shape. Matching, latency and seeded choice belong to the connectors
 * package's `mock` type, which checks the details; this catches what makes the file unusable.
 */
const repliesFileShape = lazy(() =>
  z.looseObject({
    replies: z
      .array(
        z.looseObject({
          choices: z.array(z.looseObject({ weight: z.number().nonnegative().optional() })).optional(),
          tool_calls: z.array(z.unknown()).optional(),
          latency_ms: z.number().nonnegative().optional(),
        }),
      )
      .optional(),
    latency_ms: z.number().nonnegative().optional(),
    seed: z.number().optional(),
    error_rate: z.number().min(0).max(1).optional(),
  }),
);

/**
 * `-n mock` and `-n mock:<path>`: an offline agent with scripted replies. Without a path it looks
 * for `mock.yaml`, `mock.yml` or `mock.json` next to the input (`hint`), then in each directory up
 * to the working directory.
 */
export async function loadMockAgent(
  explicit: string | undefined,
  hint: string | undefined,
  cwd: string,
): Promise<Agent> {
  const file = explicit ? await explicitFile(explicit, cwd) : await findRepliesFile(hint, cwd);
  const options = await readRepliesFile(file, cwd);
  const { createChatClient, connectorAgent } = await loadConnectors();
  let client;
  try {
    client = createChatClient('mock', { type: 'mock', options });
  } catch (error) {
    if (isAgentestError(error) && error.code === 'CONNECTOR_INVALID') {
      // The connector names itself ("connector "mock" (mock): …"); the file is the better name here.
      const detail = error.message.replace(/^connector "[^"]*" \(mock\): /, '');
      throw new AgentestError('CONFIG_INVALID', `${show(file, cwd)}: ${detail}`, {
        where: show(file, cwd),
        cause: error,
      });
    }
    throw error;
  }
  return connectorAgent('mock', client, { path: file });
}

async function explicitFile(path: string, cwd: string): Promise<string> {
  const file = resolve(cwd, path);
  if (!(await isFile(file))) {
    throw new AgentestError('INPUT_NOT_FOUND', `-n mock:${path}: replies file not found (looked at ${file})`, {
      where: '-n',
    });
  }
  return file;
}

async function findRepliesFile(hint: string | undefined, cwd: string): Promise<string> {
  const looked: string[] = [];
  for (const dir of await searchDirs(hint, cwd)) {
    for (const name of FILE_NAMES) {
      const file = join(dir, name);
      if (await isFile(file)) return file;
      looked.push(file);
    }
  }
  throw new AgentestError(
    'INPUT_NOT_FOUND',
    `-n mock: no replies file found (looked at ${looked.map((f) => show(f, cwd)).join(', ')}); ` +
      'create mock.yaml next to the input, or name one with -n mock:<path>',
    { where: '-n' },
  );
}

/** The hint's directory, then its parents up to `cwd`; a hint outside `cwd` is searched, then `cwd`. */
async function searchDirs(hint: string | undefined, cwd: string): Promise<string[]> {
  const root = resolve(cwd);
  let dir = hint ? resolve(root, hint) : root;
  if (!(await isDirectory(dir))) dir = dirname(dir);
  const dirs: string[] = [];
  while (true) {
    dirs.push(dir);
    const rel = relative(root, dir);
    if (!rel || rel.startsWith('..') || isAbsolute(rel)) break;
    dir = dirname(dir);
  }
  if (dirs.at(-1) !== root) dirs.push(root);
  return dirs;
}

async function readRepliesFile(file: string, cwd: string): Promise<Record<string, unknown>> {
  const where = show(file, cwd);
  const text = await readFile(file, 'utf8');
  let data: unknown;
  try {
    // The YAML parser is some seventy modules: loaded only for a replies file written in YAML.
    data = extname(file) === '.json' ? JSON.parse(text) : (await import('yaml')).parse(text);
  } catch (error) {
    const kind = extname(file) === '.json' ? 'JSON' : 'YAML';
    throw new AgentestError('CONFIG_INVALID', `${where}: not valid ${kind}: ${(error as Error).message}`, {
      where,
      cause: error,
    });
  }
  // A bare list is shorthand for { replies: [...] }.
  const options = Array.isArray(data) ? { replies: data } : data;
  if (!options || typeof options !== 'object') {
    throw new AgentestError(
      'CONFIG_INVALID',
      `${where}: expected { replies: [...], default?, latency_ms?, seed?, error_rate? } or a list of replies`,
      { where },
    );
  }
  const checked = repliesFileShape().safeParse(options);
  if (!checked.success)
    throw new AgentestError('CONFIG_INVALID', `${where}: ${formatIssues('', checked.error)}`, { where });
  return options as Record<string, unknown>;
}

function show(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}
