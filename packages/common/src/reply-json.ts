/**
 * The JSON value in a helper agent's reply (a judge, a simulator, a generator): the whole text when it
 * is a JSON object or array, else the first fenced block (```json or a bare ```) that parses. Prose is
 * not data: `Sure: a latte` stays text (Yao reads such a first line as YAML and then rejects the reply, W6).
 */
export function replyJson(text: string): unknown {
  const trimmed = text.trim();
  const whole = parseIfJson(trimmed);
  if (whole !== undefined) return whole;
  for (const block of trimmed.matchAll(/^ {0,3}(`{3,}|~{3,})[ \t]*([\w-]*)[^\n]*\n([\s\S]*?)\n {0,3}\1[ \t]*$/gm)) {
    const language = block[2]!.toLowerCase();
    if (language && language !== 'json' && language !== 'jsonc') continue;
    const parsed = parseIfJson(block[3]!.trim());
    if (parsed !== undefined) return parsed;
  }
  return undefined;
}

function parseIfJson(text: string): unknown {
  if (!text.startsWith('{') && !text.startsWith('[')) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
