import { extname, isAbsolute, relative, resolve } from 'node:path';
import {
  AgentestError,
  isAgentestError,
  type Agent,
  type AgentestPlugin,
  type EnvironmentVariables,
} from '@agentest/kernel';
import type { TextStream } from '@agentest/report';
import type { ReporterSpec } from './config/reporter-specs.js';
import { invalid } from './flag-error.js';
import { checkOutputWritable } from './output-preflight.js';
import {
  BUILTIN_REPORT_IDS,
  BUILTIN_REPORTERS,
  knownExtensions,
  instantiateReporter,
  loadBuiltinReporter,
  loadPlainReporter,
  reporterForPath,
  reporterOptions,
  type BuiltinReporterName,
  type ReporterFactory,
} from './reporter-registry.js';

/** What decides the reporters of one CLI run. */
export interface ReporterRequest {
  /** Every `-o`, absolute, in the order given. */
  outputs: readonly string[];
  /** `-r`: a built-in format (`report.html`) or a reporter agent id. */
  reporterAgent?: string;
  /** The config's reporters, or `--reporter`'s (which replace them). */
  specs: readonly ReporterSpec[];
  /** The default path without extension (`…/output-20241217100000`). */
  stem: string;
  /** Whether to write the JSONL stream at `{stem}.jsonl` when no other JSONL output is asked for. */
  defaultJsonl: boolean;
  /**
   * Whether the run has a default place for files (file, directory and glob runs). Message and
   * script runs do not: config file reporters without an `output` of their own write nothing there.
   */
  defaultFiles: boolean;
  /** Message mode without `-o`: the reply is printed instead of the console layout. */
  printReply: boolean;
  verbose: boolean;
  /** Which cases the console prints a line for (its `cases` option); the config's console options win. */
  consoleCases?: 'all' | 'failed';
  color: boolean;
  cwd: string;
  /** Resolves the `-r` agent when the LLM reporter needs it (after the run). */
  resolveAgent: (id: string) => Promise<Agent>;
  stdout: TextStream;
  stderr: TextStream;
  env: EnvironmentVariables;
  /** The message-mode printer, supplied by the caller. */
  replyPrinter: () => AgentestPlugin;
}

/** The reporter plugins, the files they write, and the reporter agents to resolve before the run. */
export interface ReporterSetup {
  plugins: AgentestPlugin[];
  outputs: string[];
  /** Reporter agents (`-r <id>`, config `['llm', { agent }]`) and where each was asked for. */
  agents: { id: string; where: string }[];
}

interface FileOutput {
  name: BuiltinReporterName;
  path: string;
  options: Record<string, unknown>;
  factory?: ReporterFactory;
  /** The config entry or flag that asked for it, for a factory that throws. */
  where: string;
}

/**
 * Turns `-o`, `-r`, the config's reporters and `--no-jsonl` into reporter plugins and the list of
 * files the run writes. One run can write every format at once; each path is written once.
 */
export async function setupReporters(req: ReporterRequest): Promise<ReporterSetup> {
  const files: FileOutput[] = [];
  const others: AgentestPlugin[] = [];
  const agents: ReporterSetup['agents'] = [];
  const add = (file: FileOutput) => {
    if (!files.some((f) => f.path === file.path)) files.push(file);
  };

  const llm = requestedFiles(req, add);
  if (llm) agents.push({ id: llm.id, where: '-r' });

  let consoleSpec: Extract<ReporterSpec, { kind: 'builtin' }> | undefined;
  let githubListed = false;
  for (const spec of req.specs) {
    if (spec.kind === 'plugin') others.push(spec.plugin);
    else if (spec.kind === 'module')
      others.push(instantiateReporter(spec.factory, injected(req, spec.options), spec.where));
    else if (spec.name === 'console') consoleSpec = spec;
    else if (spec.name === 'llm') {
      if (typeof spec.options.output === 'string' || req.defaultFiles)
        others.push(await llmFromConfig(spec, req, agents));
    } else if (!BUILTIN_REPORTERS[spec.name].writesFile) {
      githubListed ||= spec.name === 'github';
      others.push(instantiateReporter(spec.factory, injected(req, spec.options), spec.where));
    } else fileFromConfig(spec, req, files, add);
  }
  if (
    req.defaultJsonl &&
    !req.outputs.length &&
    !llm?.path.endsWith('.jsonl') &&
    !files.some((f) => f.name === 'jsonl')
  )
    add({ name: 'jsonl', path: `${req.stem}.jsonl`, options: {}, where: 'the default JSONL report' });

  const outputs = [...files.map((f) => f.path), ...(llm ? [llm.path] : [])];
  for (const file of [...files, ...(llm ? [{ path: llm.path, where: '-r' }] : [])])
    checkOutputWritable(file.path, file.where);
  const plugins: AgentestPlugin[] = [
    req.printReply ? req.replyPrinter() : await consoleReporter(req, consoleSpec, outputs),
  ];
  for (const file of files) {
    const factory = file.factory ?? (await loadBuiltinReporter(file.name));
    plugins.push(instantiateReporter(factory, { ...injected(req, file.options), output: file.path }, file.where));
  }
  if (llm) plugins.push(await llmReporter(llm.id, llm.path, req));
  plugins.push(...others);
  if (req.env.GITHUB_ACTIONS === 'true' && !githubListed) {
    const github = await optionalReporter('github', req);
    if (github) plugins.push(github);
  }
  return { plugins, outputs, agents };
}

/** A config file reporter: written at its own `output`, where `-o` writes that format, or at the default path. */
function fileFromConfig(
  spec: Extract<ReporterSpec, { kind: 'builtin' }>,
  req: ReporterRequest,
  files: FileOutput[],
  add: (file: FileOutput) => void,
): void {
  const explicit = typeof spec.options.output === 'string' ? resolve(req.cwd, spec.options.output) : undefined;
  const asked = files.find((f) => f.name === spec.name)?.path;
  if (!explicit && !asked && !req.defaultFiles) return;
  const path = explicit ?? asked ?? `${req.stem}${BUILTIN_REPORTERS[spec.name].extensions[0]}`;
  const existing = files.find((f) => f.path === path);
  if (existing) existing.options = { ...existing.options, ...spec.options, output: path };
  else
    add({
      name: spec.name,
      path,
      options: { ...spec.options, output: path },
      factory: spec.factory,
      where: spec.where,
    });
}

/** The terminal layout, with the config's `console` options when it lists one, and the files the run writes. */
async function consoleReporter(
  req: ReporterRequest,
  spec: Extract<ReporterSpec, { kind: 'builtin' }> | undefined,
  outputs: string[],
): Promise<AgentestPlugin> {
  const factory = spec?.factory ?? (await loadBuiltinReporter('console'));
  const shown = outputs.map((path) => displayPath(path, req.cwd));
  const options = {
    stream: req.stdout,
    outputs: shown,
    ...(req.consoleCases ? { cases: req.consoleCases } : {}),
    ...injected(req, spec?.options ?? {}),
  };
  return instantiateReporter(factory, options, spec?.where ?? 'the console reporter');
}

/**
 * The files `-r` and `-o` ask for. `-r <agent>` writes to the first `-o` (default `{stem}.md`), a
 * built-in `-r report.html` likewise; every other `-o` writes the format its extension names.
 * Returns the reporter agent `-r` names, if any.
 */
function requestedFiles(
  req: ReporterRequest,
  add: (file: FileOutput) => void,
): { id: string; path: string } | undefined {
  const [first, ...rest] = req.outputs;
  const asBuiltin = req.reporterAgent ? BUILTIN_REPORT_IDS[req.reporterAgent] : undefined;
  let llm: { id: string; path: string } | undefined;
  if (req.reporterAgent && !asBuiltin) llm = { id: req.reporterAgent, path: first ?? `${req.stem}.md` };
  else if (asBuiltin)
    add({
      name: asBuiltin,
      path: first ?? `${req.stem}${BUILTIN_REPORTERS[asBuiltin].extensions[0]}`,
      options: {},
      where: '-r',
    });
  for (const output of req.reporterAgent ? rest : req.outputs) {
    const name = reporterForPath(output);
    if (!name)
      throw invalid(
        '-o, --output',
        `has an extension agentest cannot write (${extname(output) || 'none'}); use one of ${knownExtensions().join(', ')}`,
      );
    add({ name, path: output, options: {}, where: `-o ${output}` });
  }
  return llm;
}

const FORMAT_BY_EXTENSION: Record<string, 'html' | 'markdown' | 'json'> = {
  '.html': 'html',
  '.htm': 'html',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.json': 'json',
};
const FALLBACK: Record<'html' | 'markdown' | 'json' | 'text', BuiltinReporterName> = {
  html: 'html',
  markdown: 'markdown',
  json: 'json',
  text: 'summary',
};

/** `-r <agent-id>`: the reporter agent writes the file; the built-in reporter of that format is its fallback. */
async function llmReporter(
  id: string,
  output: string,
  req: ReporterRequest,
  extra: Record<string, unknown> = {},
): Promise<AgentestPlugin> {
  const format =
    (extra.format as keyof typeof FALLBACK | undefined) ?? FORMAT_BY_EXTENSION[extname(output).toLowerCase()] ?? 'text';
  const fallbackFactory = await loadPlainReporter(FALLBACK[format] ?? 'summary');
  const factory = await loadBuiltinReporter('llm');
  return factory({
    ...extra,
    agent: () => req.resolveAgent(id),
    format,
    output,
    cwd: req.cwd,
    verbose: req.verbose,
    // A plain reporter the LLM reporter drives itself, given what every reporter is given.
    fallback: fallbackFactory({ ...injected(req, {}), output }),
  });
}

/** A config entry `['llm', { agent: 'reporter.id', output?, format? }]`. */
async function llmFromConfig(
  spec: Extract<ReporterSpec, { kind: 'builtin' }>,
  req: ReporterRequest,
  agents: ReporterSetup['agents'],
): Promise<AgentestPlugin> {
  const { agent, output, ...rest } = spec.options;
  if (typeof agent !== 'string' || !agent) {
    throw new AgentestError(
      'CONFIG_INVALID',
      'reporters: the "llm" reporter needs { agent: "<agent-id>" } naming the reporter agent',
      { where: 'reporters' },
    );
  }
  agents.push({ id: agent, where: 'reporters: llm' });
  const path = typeof output === 'string' ? resolve(req.cwd, output) : `${req.stem}.md`;
  return llmReporter(agent, path, req, rest);
}

/** Reporters switched on by the environment must not break a run when their package is missing. */
async function optionalReporter(name: BuiltinReporterName, req: ReporterRequest): Promise<AgentestPlugin | undefined> {
  try {
    return instantiateReporter(await loadBuiltinReporter(name), injected(req, {}), `the ${name} reporter`);
  } catch (error) {
    if (!isAgentestError(error) || error.code !== 'REPORTER_NOT_FOUND') throw error;
    req.stderr.write(`warning: ${error.message}\n`);
    return undefined;
  }
}

/** What every reporter is given, whatever form asked for it (a name, a path, a package); its own options win. */
function injected(req: ReporterRequest, options: Record<string, unknown>): Record<string, unknown> {
  return reporterOptions({ cwd: req.cwd, verbose: req.verbose, ...(req.color ? {} : { color: false }) }, options);
}

/** Paths under the working directory are shown relative to it. */
function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}
