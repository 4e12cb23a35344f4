/**
 * The one error catalogue. Codes are SCREAMING_SNAKE and alphabetical; each entry says what triggers
 * it and how to fix it, and `docs/errors.md` is generated from this table (`npm run docs:errors`).
 * Exit code 2 is for configuration and input errors, 3 for runtime errors.
 */
export const ERROR_CATALOGUE = {
  AGENT_NOT_FOUND: {
    exit: 2,
    trigger: 'No resolve plugin recognised the agent reference (`-n`, the input path, or the working directory).',
    fix: 'Name a config agent, a built-in (`echo`, `mock`) or an assistant id with `-n`; without `-n`, run from inside an assistant directory.',
  },
  ASSERTION_INVALID: {
    exit: 2,
    trigger: 'An assertion is malformed: a bad regex, an invalid JSONPath, a missing `value` or `path`.',
    fix: 'Correct the assertion at the reported file and line.',
  },
  BLOB_INVALID: {
    exit: 2,
    trigger:
      'A file given to `agentest merge` or `--resume` is missing, empty, or not a shard blob (its first line is not the blob header a sharded run writes), or a line inside it is not an event.',
    fix: 'Pass the blobs a sharded run wrote into `--blob-dir` (default `.agentest/blobs`), or the folder holding them; the message names the file and line.',
  },
  BLOB_MISMATCH: {
    exit: 2,
    trigger:
      'The blobs given to `agentest merge` are not the shards of one run: a shard given twice, different totals, a different suite, config or agentest version, a case in two shards, or blobs of several runs; or `--resume` was given a blob of another suite, config or shard.',
    fix: 'Merge the blobs of one run only (`--run-id` picks one run out of a folder); run every shard with the same suite, config, flags and agentest version, and resume a shard with the command that started it.',
  },
  CASSETTE_MISS: {
    exit: 3,
    trigger:
      'A call in replay (`--replay`, or lockdown: `CI` set and the suite has cassettes) has no recording: the prompt, the tools, the options or the number of runs changed since the cassette was recorded.',
    fix: 'Read the difference the case shows; if the change is intended, record again with `--record` (or `--cassettes auto` to record only what is missing) and commit the cassettes.',
  },
  CASSETTE_SECRET: {
    exit: 3,
    trigger:
      'A call being recorded carries a connector key or another configured secret in its request or its reply, so its case is not written to the cassette.',
    fix: 'Keep keys out of prompts, tool arguments and tool results (pass them through the connector config or `$ENV.`), then record again.',
  },
  CONFIG_INVALID: {
    exit: 2,
    trigger: 'The config file has a wrong key, a wrong type or a reference that cannot be loaded.',
    fix: 'Correct the key named in the message; `agentest test --help` lists every option.',
  },
  CONFIG_LOAD_FAILED: {
    exit: 2,
    trigger: 'The config file could not be read or evaluated (syntax error, failing import).',
    fix: 'Run the config file on its own to see the underlying error: `npx tsx agentest.config.ts` for TypeScript, `node agentest.config.mjs` for JavaScript; for JSON or YAML, correct the syntax at the position in the message.',
  },
  CONNECTOR_INVALID: {
    exit: 2,
    trigger: 'A connector definition is missing its type, model or key, or names an unknown type.',
    fix: 'Correct the connector file or the `connectors` entry in the config.',
  },
  CONNECTOR_NOT_FOUND: {
    exit: 2,
    trigger: 'A connector id (`-c`, a case option, an assistant) matches no connector.',
    fix: 'Add `connectors/<id>.conn.yao` or a `connectors` entry in the config, or pick an existing id.',
  },
  CONTEXT_FILE_INVALID: {
    exit: 2,
    trigger: 'The `--ctx` file is missing, is not valid JSON, or has a field of the wrong type.',
    fix: 'Correct the field named in the message; see "Test environment" in the docs.',
  },
  DUPLICATE_CASE_ID: { exit: 2, trigger: 'Two cases of one suite share an id.', fix: 'Give every case a unique `id`.' },
  FLAG_INVALID: {
    exit: 2,
    trigger: 'A command-line flag has a value of the wrong form (e.g. `--runs 0`, `--timeout 5 minutes`).',
    fix: 'Use the form shown in the help of the command the flag was given to (`agentest <command> --help`).',
  },
  GENERATOR_FAILED: {
    exit: 3,
    trigger:
      'A case generator (`-i "agents:<id>?count=N"` or `-i "scripts:<module>.<Function>"`) could not be loaded, failed, timed out, or answered without JSON cases.',
    fix: 'Check the generator named in the message (the message quotes its reply); `--dry-run` shows what it generates without running the cases.',
  },
  HELPER_NOT_FOUND: {
    exit: 2,
    trigger:
      'A case names a judge (`"use"` of an `agent` assertion) or a simulated user (`simulator.use`, `--simulator`) that no resolve plugin knows; found before any case runs.',
    fix: 'Correct the id in the case the message names (file and line), or `--simulator`: `agents:<id>` of a config agent or a Yao assistant, or `connector:<id>` of a connector in the config or the app.',
  },
  INPUT_INVALID: {
    exit: 2,
    trigger:
      'A test case is malformed: invalid JSON, a missing `id`/`input`, a field of the wrong type, an invalid `timeout`.',
    fix: 'Correct the line reported as `file:line`.',
  },
  INPUT_NOT_FOUND: {
    exit: 2,
    trigger: 'The `-i` file, directory or script does not exist.',
    fix: 'Check the path; the message lists where agentest looked.',
  },
  INTERNAL: {
    exit: 3,
    trigger: 'An invariant of agentest itself was broken.',
    fix: 'Report it with the command line and `DEBUG=agentest:*` output.',
  },
  MERGE_INCOMPLETE: {
    exit: 2,
    trigger:
      '`agentest merge` is missing a shard of the run, or a shard blob lacks the result of some of its cases (the shard was killed or is still running).',
    fix: 'Wait for every shard and pass all their blobs; rerun a killed shard with `--resume <its blob>`, which runs only its unfinished cases.',
  },
  NO_ASSERTION: {
    exit: 2,
    trigger: 'A case uses an assertion type that no plugin handles.',
    fix: 'Use one of the known types listed in the message, or add the plugin that provides it.',
  },
  NO_CASES: {
    exit: 2,
    trigger:
      'The input holds no runnable case, `--run` or `--tag` matched none, or no case has a tag `--tag` asks for.',
    fix: 'Add cases, loosen the `--run` pattern, or check the tag against the tags the message lists.',
  },
  NO_EXECUTOR: {
    exit: 2,
    trigger: 'A case kind has no executor plugin (e.g. `script` cases without the script plugin).',
    fix: 'Add the plugin named in the message to `plugins`.',
  },
  NO_LOADER: {
    exit: 2,
    trigger: 'No load plugin recognised the `-i` input.',
    fix: 'Pass a `.jsonl` file, a message, `scripts.<assistant>.<module>`, or a directory of tests.',
  },
  ONLY_FORBIDDEN: {
    exit: 2,
    trigger:
      "A test marked `.only` was found while `CI` is set: it would silently skip every other case (Playwright's forbidOnly).",
    fix: 'Remove the `.only` named in the message, or pass `--allow-only` when the focus is meant.',
  },
  PLUGIN_ERROR: {
    exit: 3,
    trigger: 'A plugin threw inside one of its hook taps.',
    fix: "The message names the plugin and the hook; see that plugin's docs.",
  },
  PLUGIN_INVALID: {
    exit: 2,
    trigger:
      'A `plugins` entry is not a plugin object (`{name, apply}`), its options are invalid, or the package it names is not installed, has no factory, or ships TypeScript.',
    fix: 'Call the plugin factory in the config (`myPlugin()`), check its options; install (and build) the package the message names.',
  },
  REPORTER_FAILED: {
    exit: 3,
    trigger: 'A reporter threw or timed out while writing its output.',
    fix: "Verdicts are unaffected and the other outputs were written; see the reporter's message.",
  },
  REPORTER_INVALID: {
    exit: 2,
    trigger:
      "A reporter's factory threw: its options are wrong or it cannot start (a folder it cannot write, a missing setting).",
    fix: "Correct the `reporters` entry or flag named in the message; see that reporter's docs for its options.",
  },
  REPORTER_NOT_FOUND: {
    exit: 2,
    trigger:
      'A reporter name or path in `reporters`/`-r` cannot be loaded (not installed, broken, or a package whose entry is TypeScript).',
    fix: 'Use a built-in name (listed in the message) or a path to a module that default-exports a reporter.',
  },
  REPORTS_NOT_COMPARABLE: {
    exit: 2,
    trigger:
      '`agentest compare` was given two reports that cannot be compared: different suites or suite kinds, or no case id in common.',
    fix: 'Compare two runs of the same suite; the message says what differs.',
  },
  REPORT_NOT_FOUND: {
    exit: 2,
    trigger:
      '`agentest show-report` found no HTML report: the file it was given does not exist or is not an agentest HTML report, or the project holds none yet.',
    fix: 'Write one with `agentest test -i tests/inputs.jsonl -o report.html` (or an `html` reporter in the config), then run `agentest show-report` again.',
  },
  REPORT_UNREADABLE: {
    exit: 2,
    trigger:
      'A report given to `agentest compare` is missing, is not valid JSON or JSONL, or is not an agentest report.',
    fix: 'Pass a `.jsonl` event stream or a `.json` report written by `agentest test`; the message names the file and line.',
  },
  SCRIPT_INVALID: {
    exit: 2,
    trigger: 'A script file has a syntax or type error and cannot be compiled.',
    fix: 'Fix the file at the reported line.',
  },
  SECRET_MISSING: {
    exit: 2,
    trigger: 'A connector needs an API key whose environment variable is not set.',
    fix: 'Export the variable named in the message, or point the connector at the `mock` type.',
  },
  SHARD_ENV_INVALID: {
    exit: 2,
    trigger:
      "A CI's parallel-job variables do not name a shard: an index without its total (`CI_NODE_INDEX` without `CI_NODE_TOTAL`, a Kubernetes `JOB_COMPLETION_INDEX` without `--shard-total` or `AGENTEST_SHARD_TOTAL`), a value that is not a number, or an index beyond the total.",
    fix: 'Correct the variable named in the message, give a Kubernetes Indexed Job its total (`--shard-total <completions>`), or choose the shard with `--shard <index>/<total>` (`--shard 1/1` runs the whole suite).',
  },
} as const satisfies Record<string, { exit: 2 | 3; trigger: string; fix: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/**
 * The brand every AgentestError carries. A project can hold two installed copies of `@agentest/kernel`
 * (a plugin that bundles its own); `Symbol.for` is shared across them where a class is not, so an
 * error thrown by one copy keeps its code and exit in the other.
 */
const BRAND = Symbol.for('agentest.error');

/** Every error agentest raises on purpose. `message` names the file, line or flag at fault. */
export class AgentestError extends Error {
  override readonly name: string = 'AgentestError';
  readonly code: ErrorCode;
  /** Where the fault is, when it has a place: `file:line`, a flag, a config key. */
  readonly where?: string;
  /** A fix more precise than the catalogue's, when the thrower knows one (the kind of config file). */
  private readonly ownHint?: string;

  constructor(code: ErrorCode, message: string, options: { cause?: unknown; where?: string; hint?: string } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.where = options.where;
    if (options.hint) this.ownHint = options.hint;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** `instanceof AgentestError` holds for an error of any installed copy; a subclass checks its own chain. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (this !== AgentestError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }

  get exitCode(): 2 | 3 {
    return ERROR_CATALOGUE[this.code].exit;
  }

  /** The fix from the catalogue, for printing under the message. */
  get hint(): string {
    return this.ownHint ?? ERROR_CATALOGUE[this.code].fix;
  }
}

/**
 * An AgentestError that is also a `TypeError`, for an API whose contract names that class:
 * agentest-kit's `defineAdapter` throws a TypeError for an object that is no adapter. Both
 * `instanceof TypeError` and `instanceof AgentestError` hold, and it carries the same code, place,
 * hint and exit code.
 */
export class AgentestTypeError extends TypeError {
  override readonly name: string = 'AgentestError';
  readonly code: ErrorCode;
  readonly where?: string;

  constructor(code: ErrorCode, message: string, options: { where?: string } = {}) {
    super(message);
    this.code = code;
    this.where = options.where;
    Object.defineProperty(this, BRAND, { value: true });
  }

  get exitCode(): 2 | 3 {
    return ERROR_CATALOGUE[this.code].exit;
  }

  get hint(): string {
    return ERROR_CATALOGUE[this.code].fix;
  }
}

/** A throw inside a hook tap, attributed to its plugin and hook. */
export class PluginError extends AgentestError {
  override readonly name = 'PluginError';
  readonly plugin: string;
  readonly hook: string;

  constructor(plugin: string, hook: string, cause: unknown) {
    const inner = cause instanceof Error ? cause.message : String(cause);
    super('PLUGIN_ERROR', `plugin "${plugin}" failed in hook "${hook}": ${inner}`, { cause });
    this.plugin = plugin;
    this.hook = hook;
  }
}

export function isAgentestError(error: unknown): error is AgentestError {
  return error instanceof AgentestError;
}

/** The message of anything thrown, including non-Errors and empty messages. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name || 'Error (no message)';
  if (typeof error === 'string') return error || 'thrown empty string';
  try {
    return `thrown value: ${JSON.stringify(error)}`;
  } catch {
    return `thrown value: ${String(error)}`;
  }
}
