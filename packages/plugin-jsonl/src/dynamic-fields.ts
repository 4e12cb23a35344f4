import type { Checkpoint, DynamicCaseData, SimulatorSpec } from '@agentest/kernel';
import { didYouMean } from '@agentest/kernel/errors';
import { typeName } from './input-error.js';
import { parseAssertions } from './parse-assertions.js';
import type { Fail } from './schema-error.js';

/** Yao's default when `max_turns` is absent. */
export const DEFAULT_MAX_TURNS = 20;

/** The case keys of Yao's dynamic mode. */
export const DYNAMIC_MODE_KEYS = ['simulator', 'checkpoints', 'max_turns'] as const;

const CHECKPOINT_KEYS = ['id', 'description', 'assert', 'after', 'required'];
const SIMULATOR_FIX =
  'write "simulator": {"use": "<agent id>", "options": {"metadata": {"persona": "…", "goal": "…"}}}';

/**
 * Yao's dynamic mode (a simulator plays the user through ordered checkpoints), checked where Yao is
 * silent: a case has both a simulator (its own or `--simulator`) and checkpoints, or neither; ids are
 * unique; `after` names checkpoints of the same case, without a cycle. Returns undefined for a static case.
 */
export function parseDynamicFields(
  value: Record<string, unknown>,
  defaultSimulator: string | undefined,
  fail: Fail,
): { data: DynamicCaseData; checkpoints: Checkpoint[] } | undefined {
  const hasCheckpoints = value.checkpoints !== undefined && value.checkpoints !== null;
  const hasSimulator = value.simulator !== undefined && value.simulator !== null;
  if (!hasCheckpoints) {
    if (hasSimulator || (value.max_turns !== undefined && value.max_turns !== null))
      fail(
        `field "${hasSimulator ? 'simulator' : 'max_turns'}" without "checkpoints": a simulated conversation needs checkpoints to reach`,
        'add "checkpoints": [{"id": "…", "assert": {…}}], or remove "simulator" and "max_turns" to run a static case',
      );
    return undefined;
  }
  for (const key of ['assert', 'expected'])
    if (value[key] !== undefined && value[key] !== null)
      fail(
        `field "${key}" in a dynamic case: its verdict comes from its checkpoints (Yao ignores "${key}" there)`,
        'move the assertion into a checkpoint\'s "assert"',
      );
  const simulator = parseSimulator(value.simulator, defaultSimulator, fail);
  const checkpoints = parseCheckpoints(value.checkpoints, fail);
  return { data: { simulator, max_turns: parseMaxTurns(value.max_turns, fail) }, checkpoints };
}

function parseSimulator(raw: unknown, defaultSimulator: string | undefined, fail: Fail): SimulatorSpec {
  if (raw === undefined || raw === null) {
    if (defaultSimulator) return { use: withoutPrefix(defaultSimulator), metadata: {} };
    fail('the case has "checkpoints" but no "simulator"', `${SIMULATOR_FIX}, or pass --simulator <agent id>`);
  }
  if (typeof raw !== 'object' || Array.isArray(raw))
    fail(`field "simulator" must be an object, got ${typeName(raw)}`, SIMULATOR_FIX);
  const simulator = raw as Record<string, unknown>;
  for (const key of Object.keys(simulator))
    if (key !== 'use' && key !== 'options')
      fail(`unknown field "simulator.${key}"${didYouMean(key, ['use', 'options'])}`, SIMULATOR_FIX);
  let use = simulator.use ?? defaultSimulator;
  if (typeof use !== 'string' || !use.trim())
    fail(
      `field "simulator.use" must be a non-empty string, got ${typeName(use)}`,
      `${SIMULATOR_FIX}, or pass --simulator <agent id>`,
    );
  use = withoutPrefix(use as string);
  const options = simulator.options ?? {};
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    fail(`field "simulator.options" must be an object, got ${typeName(options)}`, SIMULATOR_FIX);
  const { metadata = {}, connector, ...rest } = options as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra) fail(`unknown field "simulator.options.${extra}"`, 'simulator options are "metadata" and "connector"');
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata))
    fail(`field "simulator.options.metadata" must be an object, got ${typeName(metadata)}`, SIMULATOR_FIX);
  if (connector !== undefined && typeof connector !== 'string')
    fail(`field "simulator.options.connector" must be a string, got ${typeName(connector)}`, 'name a connector id');
  return {
    use: use as string,
    ...(typeof connector === 'string' ? { connector } : {}),
    metadata: metadata as Record<string, unknown>,
  };
}

/** Yao takes the bare id; `agents:<id>` (as judges are written) means the same agent here. */
function withoutPrefix(id: string): string {
  return id.startsWith('agents:') ? id.slice('agents:'.length) : id;
}

function parseMaxTurns(raw: unknown, fail: Fail): number {
  if (raw === undefined || raw === null) return DEFAULT_MAX_TURNS;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 1)
    fail(
      `field "max_turns" must be a whole number of at least 1, got ${JSON.stringify(raw)}`,
      `write e.g. "max_turns": 8 (without quotes), or leave it out for ${DEFAULT_MAX_TURNS}`,
    );
  return raw as number;
}

function parseCheckpoints(raw: unknown, fail: Fail): Checkpoint[] {
  if (!Array.isArray(raw) || raw.length === 0)
    fail(
      `field "checkpoints" must be a non-empty array, got ${Array.isArray(raw) ? 'an empty array' : typeName(raw)}`,
      'write "checkpoints": [{"id": "greeting", "assert": {"type": "regex", "value": "(?i)hello"}}]',
    );
  const checkpoints = (raw as unknown[]).map((item, i) => parseCheckpoint(item, i, fail));
  const ids = new Map<string, number>();
  checkpoints.forEach((c, i) => {
    if (ids.has(c.id))
      fail(
        `checkpoints[${i}] repeats id "${c.id}" (also checkpoints[${ids.get(c.id)}])`,
        'give every checkpoint of a case its own id',
      );
    ids.set(c.id, i);
  });
  checkpoints.forEach((c, i) => {
    for (const dep of c.after) {
      if (dep === c.id) fail(`checkpoints[${i}] ("${c.id}") lists itself in "after"`, 'remove it from its own "after"');
      if (!ids.has(dep))
        fail(
          `checkpoints[${i}] ("${c.id}") waits for unknown checkpoint "${dep}"${didYouMean(dep, [...ids.keys()])}`,
          `"after" names checkpoints of the same case: ${[...ids.keys()].join(', ')}`,
        );
    }
  });
  // Only required checkpoints decide the verdict: without one, the first reply passes whatever it says.
  if (!checkpoints.some((c) => c.required))
    fail(
      'every checkpoint is optional ("required": false): the case would pass on the agent\'s first reply without checking anything',
      'make the checkpoints that decide the verdict required (leave "required" out)',
    );
  const cycle = findCycle(checkpoints);
  if (cycle)
    fail(`checkpoints wait for each other in a cycle: ${cycle.join(' → ')}`, 'remove one of these "after" entries');
  return checkpoints;
}

function parseCheckpoint(item: unknown, i: number, fail: Fail): Checkpoint {
  const at = `checkpoints[${i}]`;
  if (item === null || typeof item !== 'object' || Array.isArray(item))
    fail(`field "${at}" must be an object, got ${typeName(item)}`, 'write {"id": "…", "assert": {…}, "after": ["…"]}');
  const raw = item as Record<string, unknown>;
  for (const key of Object.keys(raw))
    if (!CHECKPOINT_KEYS.includes(key))
      fail(
        `unknown field "${at}.${key}"${didYouMean(key, CHECKPOINT_KEYS)}`,
        `checkpoint fields: ${CHECKPOINT_KEYS.join(', ')}`,
      );
  if (typeof raw.id !== 'string' || !raw.id)
    fail(
      `field "${at}.id" must be a non-empty string, got ${typeName(raw.id)}`,
      'give the checkpoint an id, e.g. "greeting"',
    );
  const after = raw.after ?? [];
  if (!Array.isArray(after) || after.some((dep) => typeof dep !== 'string'))
    fail(
      `field "${at}.after" must be an array of checkpoint ids, got ${typeName(after)}`,
      'write e.g. "after": ["greeting"]',
    );
  if (raw.required !== undefined && raw.required !== null && typeof raw.required !== 'boolean')
    fail(
      `field "${at}.required" must be true or false (without quotes), got ${JSON.stringify(raw.required)}`,
      'write true or false',
    );
  if (raw.description !== undefined && raw.description !== null && typeof raw.description !== 'string')
    fail(
      `field "${at}.description" must be a string, got ${typeName(raw.description)}`,
      'describe the checkpoint in words',
    );
  const assert =
    raw.assert === undefined || raw.assert === null ? [] : parseAssertions(raw.assert, fail, false, `${at}.assert`);
  return {
    id: raw.id as string,
    ...(typeof raw.description === 'string' ? { description: raw.description } : {}),
    assert,
    after: after as string[],
    required: raw.required !== false,
  };
}

/** One cycle among `after` links, as ids from its first member back to it, or undefined. */
function findCycle(checkpoints: readonly Checkpoint[]): string[] | undefined {
  const byId = new Map(checkpoints.map((c) => [c.id, c]));
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | undefined => {
    if (state.get(id) === 'done') return undefined;
    if (state.get(id) === 'visiting') return [...path.slice(path.indexOf(id)), id];
    state.set(id, 'visiting');
    path.push(id);
    for (const dep of byId.get(id)!.after) {
      const cycle = visit(dep);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(id, 'done');
    return undefined;
  };
  for (const c of checkpoints) {
    const cycle = visit(c.id);
    if (cycle) return cycle;
  }
  return undefined;
}
