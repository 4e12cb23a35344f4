import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { AgentestError } from '@agentest/kernel';
import { ignoreRunOutputs } from './gitignore.js';
import { addDevDependency, type DependencyChange } from './package-json.js';
import * as templates from './templates.js';
import { detectYaoApp, type YaoTarget } from './yao-app.js';

export interface InitOptions {
  /** The folder to set up (absolute). */
  dir: string;
  /** Overwrite files that exist. */
  force: boolean;
  /** In a Yao app: the assistant to write the suite for (default: the first). */
  assistant?: string;
  /** The version of `@agentest/test` to add to package.json. */
  version: string;
}

export interface InitResult {
  /** The folder the config went into. */
  root: string;
  yao?: YaoTarget;
  /** The suite's path relative to `root`, with `/`. */
  suite: string;
  /** Whether `npx agentest test` runs the suite: the config is init's, or a kept one names the suite. */
  configRunsSuite: boolean;
  /** Paths relative to `root` (the workflow may be `../…` when the repository root is higher up). */
  created: string[];
  overwritten: string[];
  skipped: string[];
  dependency: DependencyChange;
  /** What happened to `.gitignore`: the run outputs added to a new one or an existing one, or nothing. */
  gitignore?: 'created' | 'updated';
}

interface PlannedFile {
  path: string;
  text: string;
}

/**
 * Sets up a project for agentest: a config, a suite of three cases (with an offline example adapter, or,
 * in a Yao app, for one of its assistants), and a GitHub Actions workflow. A file that exists is left as
 * it is unless `force`; package.json gains `@agentest/test` in its devDependencies (nothing is installed),
 * and `.gitignore` the run outputs it does not list yet.
 */
export async function scaffold(options: InitOptions): Promise<InitResult> {
  // What to write for is settled first: a refused --assistant leaves no folder and no file behind.
  const yao = await detectYaoApp(options.dir, options.assistant);
  await mkdir(options.dir, { recursive: true });
  const root = yao?.root ?? options.dir;
  // Read package.json before writing anything, so a broken one stops init with nothing half done.
  const dependency = await addDevDependency(root, '@agentest/test', `^${options.version}`);
  // The config first, the suite second: what the summary and the next command refer to.
  const [config, suite, ...rest] = yao ? yaoFiles(yao) : adapterFiles();
  const written = await writeFiles(root, [config!, suite!, ...rest, workflowFile(root)], options.force);
  const suitePath = suite!.path.split(sep).join('/');
  const configRunsSuite =
    !written.skipped.includes(config!.path) || (await readFile(join(root, config!.path), 'utf8')).includes(suitePath);
  await dependency.write();
  const gitignore = await ignoreRunOutputs(root);
  return {
    root,
    ...(yao ? { yao } : {}),
    suite: suitePath,
    configRunsSuite,
    ...written,
    dependency,
    ...(gitignore ? { gitignore } : {}),
  };
}

/** Writes each file that does not exist yet (every file with `force`), and says which were written how. */
async function writeFiles(
  root: string,
  files: readonly PlannedFile[],
  force: boolean,
): Promise<Pick<InitResult, 'created' | 'overwritten' | 'skipped'>> {
  const out = { created: [] as string[], overwritten: [] as string[], skipped: [] as string[] };
  for (const file of files) {
    const path = join(root, file.path);
    const exists = existsSync(path);
    if (exists && !force) {
      out.skipped.push(file.path);
      continue;
    }
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.text);
    (exists ? out.overwritten : out.created).push(file.path);
  }
  return out;
}

function adapterFiles(): PlannedFile[] {
  return [
    { path: 'agentest.config.ts', text: templates.adapterConfig() },
    { path: join('tests', 'inputs.jsonl'), text: templates.adapterCases() },
    { path: join('tests', 'agent.ts'), text: templates.exampleAdapter() },
  ];
}

/** The suite goes where Yao keeps an assistant's tests: `assistants/<id>/tests/inputs.jsonl`. */
function yaoFiles(yao: YaoTarget): PlannedFile[] {
  const suite = join(relative(yao.root, yao.dir), 'tests', 'inputs.jsonl');
  return [
    { path: 'agentest.config.ts', text: templates.yaoConfig(suite.split(sep).join('/')) },
    { path: suite, text: templates.yaoCases() },
  ];
}

/** Workflows live at the repository root; a project in a subfolder runs there (`working-directory`). */
function workflowFile(root: string): PlannedFile {
  const repository = gitRoot(root) ?? root;
  const workingDirectory = relative(repository, root).split(sep).join('/') || '.';
  const lockfile = existsSync(join(root, 'package-lock.json')) || existsSync(join(repository, 'package-lock.json'));
  return {
    path: relative(root, join(repository, '.github', 'workflows', 'agentest.yml')),
    text: templates.workflow({ workingDirectory, lockfile }),
  };
}

function gitRoot(from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * A folder init cannot create or write into (`agentest init some-file`, a read-only folder, a file
 * where `tests/` goes) is the `[dir]` argument's problem, exit 2, not an internal error.
 */
export function fileSystemError(error: unknown, folder: string, cwd: string): unknown {
  const { code, path } = (error ?? {}) as NodeJS.ErrnoException;
  if (!code || !['EEXIST', 'ENOTDIR', 'EACCES', 'EPERM', 'EROFS', 'EISDIR'].includes(code)) return error;
  const shown = relative(cwd, path ?? folder) || '.';
  const why =
    code === 'EEXIST' || code === 'ENOTDIR'
      ? `${shown} is a file where a folder is needed`
      : code === 'EISDIR'
        ? `${shown} is a folder where a file is needed`
        : `${shown} cannot be written (${code})`;
  return new AgentestError(
    'FLAG_INVALID',
    `[dir] ${relative(cwd, folder) || '.'}: ${why}; give another project folder (it is created when missing)`,
    { where: '[dir]' },
  );
}
