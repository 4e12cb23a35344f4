/** How deep a case's JSON may nest by default; the case object itself is level 1. */
export const DEFAULT_MAX_DEPTH = 1000;

/** A line that nests too deep, and the top-level field it does so in (when it is inside one). */
export interface TooDeep {
  field?: string;
}

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

/**
 * Checks the nesting of one JSON line from its text, without parsing or recursion, so a line
 * nested 100,000 levels deep costs one pass and never a stack overflow (here, or later in a
 * reporter that walks the value). A line no longer than `maxDepth` cannot nest deeper, so the
 * usual short line is not scanned at all. Brackets inside strings do not count.
 */
export function tooDeep(text: string, maxDepth: number): TooDeep | undefined {
  if (text.length <= maxDepth) return undefined;
  let depth = 0;
  let inString = false;
  let stringStart = -1;
  let lastTopString: [number, number] | undefined;
  let field: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) {
        inString = false;
        if (depth === 1) lastTopString = [stringStart, i + 1];
      }
    } else if (c === QUOTE) {
      inString = true;
      stringStart = i;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > maxDepth) return field === undefined ? {} : { field };
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    } else if (c === COLON && depth === 1 && lastTopString) {
      field = keyText(text, lastTopString);
    }
  }
  return undefined;
}

function keyText(text: string, [start, end]: [number, number]): string {
  try {
    return JSON.parse(text.slice(start, end)) as string;
  } catch {
    return text.slice(start + 1, end - 1);
  }
}
