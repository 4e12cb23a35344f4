/**
 * Text from a run (agent output, server error bodies, assertion messages, case names) made safe to
 * print on a terminal. Raw, it can clear the screen, retitle the window, plant OSC 8 links,
 * reorder what the reader sees with bidi overrides, or, on GitHub Actions, run a workflow command
 * from any line that starts with `::` (`::add-mask::`, `::error`). Such characters are shown
 * escaped, visibly (`\x1b`, `\u202e`), and a `::` that starts a line gets a backslash before it.
 * Tab and newline stay. Files keep the raw text; only what is printed is escaped.
 */

// C0 controls but tab and newline, DEL and C1 controls; bidi embeddings, overrides and isolates.
// Matching control characters is the point of these two patterns.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex
const UNSAFE_TEST = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;
// The runner trims leading whitespace before it looks for a command.
const WORKFLOW_COMMAND = /^([^\S\n]*)::/gm;

export function terminalSafe(text: string): string {
  const unsafe = UNSAFE_TEST.test(text);
  if (!unsafe && !text.includes('::')) return text;
  const escaped = unsafe ? text.replace(UNSAFE, escapeChar) : text;
  return escaped.replace(WORKFLOW_COMMAND, '$1\\::');
}

function escapeChar(char: string): string {
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}
