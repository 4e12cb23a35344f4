import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
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
  await mkdir(options.dir, { recursive: true });
  const yao = await detectYaoApp(options.dir, options.assistant);
  const root = yao?.root ?? options.dir;
  // Read package.json before writing anything, so a broken one stops init with nothing half done.
  const dependency = await addDevDependency(root, '@agentest/test', `^${options.version}`);
  const files = [...(yao ? yaoFiles(yao) : adapterFiles()), workflowFile(root)];
  const result: InitResult = { root, ...(yao ? { yao } : {}), created: [], overwritten: [], skipped: [], dependency };
  for (const file of files) {
    const path = join(root, file.path);
    const exists = existsSync(path);
    if (exists && !options.force) {
      result.skipped.push(file.path);
      continue;
    }
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.text);
    (exists ? result.overwritten : result.created).push(file.path);
  }
  await dependency.write();
  const gitignore = await ignoreRunOutputs(root);
  return { ...result, ...(gitignore ? { gitignore } : {}) };
}

function adapterFiles(): PlannedFile[] {
  return [
    { path: 'agentest.config.ts', text: templates.adapterConfig() },
    { path: join('tests', 'agent.ts'), text: templates.exampleAdapter() },
    { path: join('tests', 'inputs.jsonl'), text: templates.adapterCases() },
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
