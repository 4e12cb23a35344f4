import { readFile } from 'node:fs/promises';
import type { FakeLlmScript, FakeRule } from './types.js';

const KEYS = new Set(['rules', 'default', 'echo', 'latencyMs', 'faults', 'queue']);
const RULE_KEYS = new Set(['match', 'reply', 'fault', 'latencyMs', 'times']);

/**
 * Reads a JSON script (`fake-llm --script replies.json`). JSON cannot hold regexes or functions, so a
 * rule's `match` is a case-insensitive regex source; the rest is exactly `FakeLlmScript`.
 */
export async function loadScriptFile(path: string): Promise<FakeLlmScript> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(`fake-llm: cannot read script ${path}: ${(error as Error).message}`, { cause: error });
  }
  return parseScript(text, path);
}

export function parseScript(text: string, where = 'script'): FakeLlmScript {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`fake-llm: ${where} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  // A bare array is a list of rules, the most common hand-written shape.
  if (Array.isArray(value)) return { rules: checkRules(value, where) };
  if (!value || typeof value !== 'object')
    throw new Error(`fake-llm: ${where} must be a JSON object or an array of rules`);
  const unknown = Object.keys(value).filter((k) => !KEYS.has(k));
  if (unknown.length)
    throw new Error(`fake-llm: ${where} has unknown key(s) ${unknown.join(', ')} (known: ${[...KEYS].join(', ')})`);
  const script = value as FakeLlmScript;
  if (script.rules !== undefined) {
    if (!Array.isArray(script.rules)) throw new Error(`fake-llm: ${where}: "rules" must be an array of rules`);
    checkRules(script.rules, where);
  }
  return script;
}

/**
 * A rule with a misspelt key (`"replay"`, `"choices"`) would match and answer the default: the
 * scripted reply silently never comes. Each rule is an object of the known keys.
 */
function checkRules(rules: unknown[], where: string): FakeRule[] {
  rules.forEach((rule, i) => {
    if (!rule || typeof rule !== 'object' || Array.isArray(rule))
      throw new Error(
        `fake-llm: ${where}: rule ${i + 1} must be an object such as {"match": "weather", "reply": "Sunny"}`,
      );
    const unknown = Object.keys(rule).filter((k) => !RULE_KEYS.has(k));
    if (unknown.length)
      throw new Error(
        `fake-llm: ${where}: rule ${i + 1} has unknown key(s) ${unknown.join(', ')} (known: ${[...RULE_KEYS].join(', ')})`,
      );
  });
  return rules as FakeRule[];
}
