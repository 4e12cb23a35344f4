import { createRequire } from 'node:module';
import { parseJson as parseExact } from '@agentest/common';
import { jsonrepair } from 'jsonrepair';

/**
 * The YAML parser (some seventy modules) loads on the first reply that looks like YAML, not with
 * the assertions: most runs never meet one. `require` because the extraction is synchronous.
 */
let yaml: typeof import('yaml') | undefined;
const parseYaml = (text: string): unknown =>
  (yaml ??= createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse(text);

/** Matches one fenced block: ```lang, the body, and the closing fence (as Yao's extractor does). */
const FENCE = /```(\w*)[ \t]*\r?\n?([\s\S]*?)\r?\n?```/g;

/**
 * Finds the structured data in an agent's text reply, the way Yao's `text.ExtractJSON` does:
 *
 * 1. every fenced block (```json, ```yaml, or an unlabelled block whose content looks like JSON or
 *    YAML), first one that parses wins;
 * 2. without fences, the whole text, if it starts with `{`/`[` (JSON) or `---` / `key: value` (YAML);
 * 3. JSON is parsed strictly first, then through jsonrepair, which mends what LLMs break (single
 *    quotes, unquoted keys, trailing commas, comments, a missing closing bracket).
 *
 * One step further than Yao: prose around a JSON value (`Sure! {"a": 1} Hope that helps`) is found
 * too, but only when the enclosed text is strict JSON, so that ordinary sentences with braces are
 * not "repaired" into data.
 *
 * JSON is read with the kernel's `parseJson`, which keeps the source text of integers beyond 2^53 for comparisons.
 *
 * Returns `undefined` when there is nothing to extract.
 */
export function extractJson(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  // Most replies hold no fence: the search for one is skipped for them.
  if (trimmed.includes('```')) {
    let sawFence = false;
    for (const [, label, body] of trimmed.matchAll(FENCE)) {
      sawFence = true;
      const content = body!.trim();
      const value = parseAs(label!.toLowerCase() || detect(content), content);
      if (value !== undefined) return value;
    }
    if (sawFence) return embeddedJson(trimmed);
  }
  const value = parseAs(detect(trimmed), trimmed);
  if (value !== undefined) return value;
  return embeddedJson(trimmed);
}

type Format = 'json' | 'yaml' | 'yml' | (string & {});

/** What a block is, from its first characters (a subset of Yao's `detectLanguage`: JSON and YAML). */
function detect(content: string): Format {
  const first = content[0];
  if (first === '{' || first === '[') return 'json';
  if (content.startsWith('---')) return 'yaml';
  const firstLine = content.split('\n', 1)[0]!.trim();
  // `key: value`, but not a URL, a JSON fragment or a TypeScript annotation.
  if (
    firstLine.includes(': ') &&
    !firstLine.includes('":') &&
    !firstLine.includes('://') &&
    !/: (string|number|boolean)\b/.test(firstLine)
  ) {
    return 'yaml';
  }
  return '';
}

function parseAs(format: Format, content: string): unknown {
  if (format === 'json') return parseJson(content) ?? parseYamlMapping(content);
  if (format === 'yaml' || format === 'yml') return parseYamlMapping(content) ?? parseJson(content);
  return undefined;
}

function parseJson(content: string): unknown {
  try {
    return parseExact(content);
  } catch {
    // fall through to the repair
  }
  // jsonrepair turns any prose into a JSON string; only mend what is meant to be an object or array.
  if (content[0] !== '{' && content[0] !== '[') return undefined;
  try {
    return parseExact(jsonrepair(content));
  } catch {
    return undefined;
  }
}

/** YAML counts only when it is a mapping or a list: any sentence is a valid YAML scalar. */
function parseYamlMapping(content: string): unknown {
  try {
    const value: unknown = parseYaml(content);
    return value !== null && typeof value === 'object' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The first `{…}` or `[…]` span in running text that is strict JSON. */
function embeddedJson(text: string): unknown {
  for (const [open, close] of [
    ['{', '}'],
    ['[', ']'],
  ] as const) {
    const start = text.indexOf(open);
    const end = text.lastIndexOf(close);
    if (start < 0 || end <= start) continue;
    try {
      return parseExact(text.slice(start, end + 1));
    } catch {
      // not JSON; try the other bracket kind
    }
  }
  return undefined;
}
