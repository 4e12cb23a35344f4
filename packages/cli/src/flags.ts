import { errorMessage } from '@agentest/kernel/errors';
import { type CaseFilter } from '@agentest/kernel';
import { parseDuration, re2, withoutUnit } from '@agentest/common';
import type { RE2JS } from 're2js';
import { CASSETTE_MODES, type CassetteMode } from '@agentest/cassettes';
import type { RawAppFlags } from './app/app-flags.js';
import type { RawBlobFlags } from './blob/blob-flags.js';
import { invalid } from './flag-error.js';
import { parseShardFlag } from './shard/shard-flag.js';
import type { ShardMode } from './shard/shard-include.js';
import { parseWatchFlags, type WatchFlags, type WatchRawFlags } from './watch/watch-flags.js';

/** The `test` command's flags as commander hands them over: strings, booleans and arrays. */
export interface RawFlags extends RawAppFlags, RawBlobFlags, WatchRawFlags {
  input?: string;
  /** `-o` (repeatable). */
  output?: string[];
  name?: string;
  connector?: string;
  user?: string;
  team?: string;
  ctx?: string;
  /** `-r <id>` (short only): the seed's reporter agent, or a built-in format such as `report.html`. */
  r?: string;
  /** `--reporter <name>` (repeatable): built-in reporter names or paths. */
  reporter?: string[];
  runs?: string;
  run?: string;
  timeout?: string;
  parallel?: string;
  verbose?: boolean;
  failFast?: boolean;
  threshold?: string[];
  config?: string;
  jsonl?: boolean;
  color?: boolean;
  before?: string;
  after?: string;
  baseline?: string;
  allowOnly?: boolean;
  update?: boolean;
  simulator?: string;
  dryRun?: boolean;
  fuzz?: string;
  seed?: string;
  lastFailed?: boolean;
  order?: string;
  history?: boolean;
  record?: boolean;
  replay?: boolean;
  cassettes?: string;
  replayTiming?: boolean;
  maxCost?: string;
  maxTokens?: string;
  shard?: string;
  shardTotal?: string;
  shardMode?: string;
  shardDurations?: string;
  /** `--coverage` / `--no-coverage` (read by `coverage/coverage-setup.ts`). */
  coverage?: boolean;
}

/** Flags after validation. Absent values stay absent, so config values can fill them. */
export interface Flags extends WatchFlags {
  input: string;
  /** Every `-o`, as given: each writes the format its extension names. */
  outputs: string[];
  name?: string;
  connector?: string;
  user?: string;
  team?: string;
  ctx?: string;
  /** `-r`: a built-in format (`report.html`) or the id of a reporter agent. */
  reporterAgent?: string;
  /** `--reporter`: built-in names or paths; replaces the config's `reporters`. */
  reporters?: string[];
  /** `--runs <n>`, or `auto` for a sequential test per case (`--runs auto[:max]`). */
  runs?: number | 'auto';
  /** `--runs auto:<max>`: the most runs a case may get. */
  autoMax?: number;
  filter?: CaseFilter;
  timeoutMs?: number;
  parallel?: number;
  verbose: boolean;
  failFast?: boolean;
  thresholds: Record<string, number>;
  config?: string;
  jsonl: boolean;
  color: boolean;
  /** `--before` / `--after`: Yao's global BeforeAll/AfterAll hook refs for JSONL suites. */
  beforeAll?: string;
  afterAll?: string;
  /** `--baseline <report>`: compare this run with an earlier report when it ends. */
  baseline?: string;
  /** `--allow-only`: a `test.only` left in a file is allowed even when `CI` is set. */
  allowOnly: boolean;
  /** `--update`: write snapshots that differ and remove obsolete ones (docs/snapshots.md). */
  updateSnapshots: boolean;
  /** `--simulator <agent>`: who plays the user in dynamic cases that name no simulator. */
  simulator?: string;
  /** `--dry-run`: write the cases (generated ones included) as JSONL instead of running them. */
  dryRun: boolean;
  /** `--fuzz N`: N perturbed variants of each case's input, and robustness per case. */
  fuzz?: number;
  /** `--seed S`: fixes the `--fuzz` draws (default 0). */
  seed?: number;
  /** `--last-failed`: only the cases that did not pass in the latest run of this input. */
  lastFailed: boolean;
  /** `--order failed-first`: last failed, then flaky, then longest first. */
  order?: 'failed-first';
  /** False with `--no-history`: this run is not recorded. */
  history: boolean;
  /** `--record`, `--replay` or `--cassettes <mode>`. */
  cassetteMode?: CassetteMode;
  /** `--replay-timing`: replayed calls take as long as they did when recorded. */
  replayTiming: boolean;
  maxCost?: number;
  maxTokens?: number;
  /** `--shard 2/4`: run only the second of four parts of the suite. */
  shard?: { index: number; total: number };
  /** `--shard-total <n>`: how many shards a Kubernetes Indexed Job (`JOB_COMPLETION_INDEX`) splits into. */
  shardTotal?: number;
  /**
   * `--shard-mode balanced`: pack the cases by their durations (`--shard-durations <report>`, else the
   * history), longest first.
   */
  shardMode: ShardMode;
  shardDurations?: string;
}

/** Checks every flag value and says which flag is wrong and what form it takes. */
export function parseFlags(raw: RawFlags): Flags {
  if (!raw.input?.trim())
    throw invalid(
      '-i, --input',
      'is required: pass a .jsonl file, a message, scripts.<assistant>.<module>, or a directory',
    );
  return {
    input: raw.input,
    outputs: (raw.output ?? []).map((path) => {
      if (!path.trim()) throw invalid('-o, --output', 'is empty: give a file such as report.html');
      return path;
    }),
    ...optional('name', raw.name),
    ...optional('connector', raw.connector),
    ...optional('user', raw.user),
    ...optional('team', raw.team),
    ...optional('ctx', raw.ctx),
    ...optional('reporterAgent', raw.r),
    ...(raw.reporter?.length ? { reporters: raw.reporter } : {}),
    ...runs(raw.runs),
    ...optional('parallel', raw.parallel === undefined ? undefined : positiveInt('--parallel', raw.parallel)),
    ...optional('timeoutMs', raw.timeout === undefined ? undefined : duration(raw.timeout)),
    ...optional('filter', raw.run === undefined ? undefined : goRegex('--run', raw.run)),
    verbose: raw.verbose === true,
    ...(raw.failFast ? { failFast: true } : {}),
    thresholds: thresholds(raw.threshold ?? []),
    ...optional('config', raw.config),
    jsonl: raw.jsonl !== false,
    color: raw.color !== false,
    ...optional('beforeAll', hookRef('--before', raw.before)),
    ...optional('afterAll', hookRef('--after', raw.after)),
    ...optional('baseline', raw.baseline),
    allowOnly: raw.allowOnly === true,
    updateSnapshots: raw.update === true,
    ...optional('simulator', agentId('--simulator', raw.simulator)),
    dryRun: raw.dryRun === true,
    ...optional('fuzz', raw.fuzz === undefined ? undefined : positiveInt('--fuzz', raw.fuzz)),
    ...optional('seed', raw.seed === undefined ? undefined : wholeNumber('--seed', raw.seed)),
    lastFailed: raw.lastFailed === true,
    ...optional('order', order(raw.order)),
    history: raw.history !== false,
    ...optional('cassetteMode', cassetteMode(raw)),
    replayTiming: raw.replayTiming === true,
    ...optional('maxCost', raw.maxCost === undefined ? undefined : positiveNumber('--max-cost', raw.maxCost, '0.50')),
    ...optional('maxTokens', raw.maxTokens === undefined ? undefined : positiveInt('--max-tokens', raw.maxTokens)),
    ...optional('shard', raw.shard === undefined ? undefined : parseShardFlag(raw.shard)),
    ...optional('shardTotal', raw.shardTotal === undefined ? undefined : positiveInt('--shard-total', raw.shardTotal)),
    ...shardSplit(raw),
    ...parseWatchFlags(raw),
  };
}

/** `--record`, `--replay` and `--cassettes <mode>` name one mode; two that disagree are a mistake. */
function cassetteMode(raw: RawFlags): CassetteMode | undefined {
  if (raw.cassettes !== undefined && !(CASSETTE_MODES as readonly string[]).includes(raw.cassettes))
    throw invalid('--cassettes', `must be one of ${CASSETTE_MODES.join(', ')}, got ${JSON.stringify(raw.cassettes)}`);
  const asked = [
    ...(raw.record ? ['record'] : []),
    ...(raw.replay ? ['replay'] : []),
    ...(raw.cassettes !== undefined ? [raw.cassettes] : []),
  ] as CassetteMode[];
  if (new Set(asked).size > 1)
    throw invalid(
      '--record/--replay/--cassettes',
      `ask for one cassette mode, got ${asked.join(' and ')}; use --record, --replay or --cassettes auto`,
    );
  return asked[0];
}

function positiveNumber(flag: string, value: string, example: string): number {
  if (!/^\s*\d+(\.\d+)?\s*$/.test(value) || !(Number(value) > 0))
    throw invalid(flag, `must be a number above 0, got ${JSON.stringify(value)} (e.g. ${flag} ${example})`);
  return Number(value);
}

/** A hook ref is `file.Function` or a bare `Function` (see plugin-script's README); blanks are mistakes. */
function hookRef(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!value.trim())
    throw invalid(
      flag,
      'needs a hook function, e.g. env_test.BeforeAll (src/env_test.ts of the assistant, function BeforeAll)',
    );
  return value.trim();
}

function wholeNumber(flag: string, value: string): number {
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw invalid(flag, `must be a whole number, got ${JSON.stringify(value)} (e.g. ${flag} 42)`);
  return Number(value);
}

function agentId(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!value.trim()) throw invalid(flag, 'needs an agent id, e.g. --simulator tests.simulator-agent');
  return value.trim();
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined || value === '' ? {} : { [key]: value }) as { [P in K]?: V };
}

export { invalid };

/** `--shard-mode hash|balanced`; `--shard-durations` names the report balanced packs by (else the history). */
function shardSplit(raw: RawFlags): Pick<Flags, 'shardMode' | 'shardDurations'> {
  const mode = raw.shardMode?.trim() ?? 'hash';
  if (mode !== 'hash' && mode !== 'balanced')
    throw invalid(
      '--shard-mode',
      `must be hash or balanced, got ${JSON.stringify(raw.shardMode)} (e.g. --shard-mode balanced)`,
    );
  if (raw.shardDurations !== undefined && !raw.shardDurations.trim())
    throw invalid('--shard-durations', 'is empty: give a report of an earlier run (e.g. --shard-durations run.jsonl)');
  if (mode === 'hash' && raw.shardDurations !== undefined)
    throw invalid('--shard-durations', 'is for --shard-mode balanced; add it, or leave the durations out');
  return { shardMode: mode, ...optional('shardDurations', raw.shardDurations) };
}

/** `--order failed-first`; the file order is the default and needs no flag. */
function order(value: string | undefined): 'failed-first' | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === 'failed-first') return 'failed-first';
  throw invalid('--order', `must be failed-first, got ${JSON.stringify(value)} (e.g. --order failed-first)`);
}

/** `--runs 5`, `--runs auto` or `--runs auto:20`. */
function runs(value: string | undefined): Pick<Flags, 'runs' | 'autoMax'> {
  if (value === undefined) return {};
  const auto = /^\s*auto(?::(.*))?\s*$/i.exec(value);
  if (!auto) {
    if (/^\s*\d+\s*$/.test(value) && Number(value) >= 1) return { runs: Number(value) };
    throw invalid(
      '--runs',
      `must be a whole number of at least 1 or auto[:max], got ${JSON.stringify(value)} (e.g. --runs 5 or --runs auto:20)`,
    );
  }
  if (auto[1] === undefined) return { runs: 'auto' };
  if (!/^\d+$/.test(auto[1].trim()) || Number(auto[1]) < 1)
    throw invalid(
      '--runs',
      `auto:<max> needs a whole number of runs of at least 1, got ${JSON.stringify(value)} (e.g. --runs auto:20)`,
    );
  return { runs: 'auto', autoMax: Number(auto[1]) };
}

function positiveInt(flag: string, value: string): number {
  if (!/^\s*\d+\s*$/.test(value) || Number(value) < 1)
    throw invalid(flag, `must be a whole number of at least 1, got ${JSON.stringify(value)} (e.g. ${flag} 4)`);
  return Number(value);
}

/** Like Go's `time.ParseDuration`: `--timeout 30` has no unit and is an error, never 30 ms. */
function duration(value: string): number {
  const unitless = withoutUnit(value);
  if (unitless) throw invalid('--timeout', `has no unit (${JSON.stringify(value)}); ${unitless}`);
  try {
    return parseDuration(value, '--timeout');
  } catch {
    throw invalid('--timeout', `must be a duration like 30s, 2m30s or 500ms, got ${JSON.stringify(value)}`);
  }
}

/**
 * `--run` is a Go (RE2) pattern matched anywhere in the id, as `go test -run` does. The one RE2
 * form JavaScript lacks in common use, a leading `(?i)`, becomes the `i` flag.
 */
export function goRegex(flag: string, pattern: string): CaseFilter {
  // RE2, as Go's `-run`: linear time, so a pathological pattern cannot hang the selection of cases.
  let compiled: RE2JS;
  try {
    compiled = re2().compile(pattern);
  } catch (error) {
    // re2js prefixes its messages with "error parsing regexp: "; keep only the reason.
    const reason = errorMessage(error).replace(/^error parsing regexp: /, '');
    throw invalid(
      flag,
      `is not a valid regular expression: ${JSON.stringify(pattern)} (invalid regex pattern: ${reason})`,
    );
  }
  return { source: pattern, test: (text) => compiled.matcher(text).find() };
}

/**
 * `--threshold pass_rate=0.95`, `--threshold keyword_hit_rate=70%`, `--threshold latency_ms=2000`.
 * A null-prototype record, so `__proto__=1` is a (refused) name rather than a prototype swap.
 */
function thresholds(entries: string[]): Record<string, number> {
  const out: Record<string, number> = Object.create(null);
  for (const entry of entries) {
    const match = /^\s*([A-Za-z_][\w.]*)\s*=\s*(-?\d+(?:\.\d+)?)(%?)\s*$/.exec(entry);
    if (!match)
      throw invalid(
        '--threshold',
        `must be name=value, e.g. --threshold pass_rate=0.95 or keyword_hit_rate=70%, got ${JSON.stringify(entry)}`,
      );
    out[match[1]!] = match[3] ? Number(match[2]) / 100 : Number(match[2]);
  }
  return out;
}
