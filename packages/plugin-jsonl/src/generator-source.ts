import { AgentestError } from '@agentest/kernel';

/** `-i "agents:<id>?count=N&focus=…&<key>=<value>"`, read. */
export interface AgentSource {
  id: string;
  /** How many cases to ask for (default 5, as in Yao). */
  count: number;
  focus?: string;
  /** Every other query parameter, typed as Yao types them (integer, number, boolean, else string). */
  extra: Record<string, unknown>;
}

export const DEFAULT_GENERATED_COUNT = 5;

/** Whether `-i` asks a generator for cases: `agents:<id>…` or `scripts:<module>.<Function>`. */
export function generatorKind(input: string): 'agents' | 'scripts' | undefined {
  if (input.startsWith('agents:')) return 'agents';
  if (input.startsWith('scripts:')) return 'scripts';
  return undefined;
}

/** `-i "scripts:<module>.<Function>"`, read: the module's path under the app's `scripts/`, and the function. */
export interface ScriptSource {
  /** `tests.gen` in `scripts:tests.gen.Make`: the file `<app>/scripts/tests/gen.ts` (or `.js`). */
  module: string[];
  fn: string;
}

/** How `-i scripts:` is written, for every message about it. */
export const SCRIPT_SOURCE_FORM =
  "scripts:<module>.<Function>, a function of the app's scripts/ folder (scripts:tests.gen.Make is Make in <app>/scripts/tests/gen.ts)";

/**
 * Reads `scripts:<module>.<Function>` as Yao does (process `scripts.<module>.<Function>`): at least a
 * module and a function, dot-separated, the module a path under the app's `scripts/`. An empty part
 * (`scripts:tests..Make`) is refused here rather than reported as a missing file.
 */
export function parseScriptSource(input: string): ScriptSource {
  const parts = input.slice('scripts:'.length).trim().split('.');
  if (parts.length < 2 || parts.some((part) => !part.trim()))
    throw new AgentestError('INPUT_INVALID', `-i ${JSON.stringify(input)} is not ${SCRIPT_SOURCE_FORM}`, {
      where: '-i',
      hint: `Correct the -i value: -i "${SCRIPT_SOURCE_FORM.split(',')[0]}". A script test suite (TestXxx functions) is -i scripts.<assistant>.<module>, with a dot.`,
    });
  return { module: parts.slice(0, -1), fn: parts.at(-1)! };
}

/**
 * Reads `agents:<id>?k=v&…`. Unlike Yao, a malformed query (a bad `%` escape, a `;`, a key without
 * `=`) and a `count` that is not a whole number of at least 1 are errors naming `-i`, not silently
 * dropped parameters (W14).
 */
export function parseAgentSource(input: string): AgentSource {
  const rest = input.slice('agents:'.length);
  const q = rest.indexOf('?');
  const id = (q < 0 ? rest : rest.slice(0, q)).trim();
  if (!id) throw invalid(input, 'names no generator agent', 'write -i "agents:<agent id>?count=5"');
  const source: AgentSource = { id, count: DEFAULT_GENERATED_COUNT, extra: {} };
  if (q < 0 || q === rest.length - 1) return source;
  const seen = new Set<string>();
  for (const pair of rest.slice(q + 1).split('&')) {
    if (pair.includes(';') || !pair.includes('='))
      throw invalid(
        input,
        `has a malformed query parameter ${JSON.stringify(pair)}`,
        'write key=value pairs joined by &',
      );
    const [rawKey, ...rawValue] = pair.split('=');
    const key = decode(input, rawKey!);
    const text = decode(input, rawValue.join('='));
    if (seen.has(key)) throw invalid(input, `repeats the query parameter "${key}"`, 'give each parameter once');
    seen.add(key);
    if (key === 'count') source.count = countOf(input, text);
    else if (key === 'focus') source.focus = text;
    else source.extra[key] = typed(text);
  }
  return source;
}

function countOf(input: string, text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 10_000)
    throw invalid(input, `has count=${text}`, 'count is a whole number from 1 to 10000, e.g. count=10');
  return Number(text);
}

/** Yao's typing of query values: integer, then number, then boolean, else the string. */
function typed(text: string): unknown {
  if (/^[-+]?\d+$/.test(text) && Number.isSafeInteger(Number(text))) return Number(text);
  if (text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  if (text === 'true' || text === 'false') return text === 'true';
  return text;
}

function decode(input: string, text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw invalid(input, `has a bad %-escape in ${JSON.stringify(text)}`, 'escape % as %25');
  }
}

/** A query the generator cannot be asked with; the fix is in the `-i` value, not in a file line. */
const GENERATOR_QUERY_HINT =
  'Correct the -i value: -i "agents:<agent id>?count=N&focus=<topic>" (key=value pairs joined by &, values %-escaped).';

function invalid(input: string, problem: string, fix: string): AgentestError {
  return new AgentestError('INPUT_INVALID', `-i ${JSON.stringify(input)} ${problem} — ${fix}`, {
    where: '-i',
    hint: GENERATOR_QUERY_HINT,
  });
}
