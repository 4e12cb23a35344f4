import { open, stat } from 'node:fs/promises';
import { resolve } from 'node:path';

/**
 * How this plugin reads an `-i` value: a JSONL file, a direct message, a path that does not exist,
 * or not at all.
 */
export type Detection =
  { mode: 'file'; path: string } | { mode: 'message' } | { mode: 'missing'; path: string } | { mode: 'other' };

const SNIFF_BYTES = 64 * 1024;

/**
 * Detects the input mode the way the Yao design's table does, with the other loaders in mind:
 *
 * 1. `scripts.…` belongs to the script loader, unless it is a file (`scripts.jsonl`, existing or not);
 * 2. `*.jsonl` is a JSONL file, whether or not it exists (a missing file is then an error);
 * 3. directories, globs and existing files that are no JSONL (agentest-kit's `cases.json` is an
 *    array) belong to other loaders;
 * 4. any other existing file, a `.json` one too (Yao reads `-i x.json` as JSONL), is read as JSONL if
 *    its first case line starts with `{`;
 * 5. something shaped like a path that does not exist (`tests/nope.json`, `./x`) is `missing`, so a
 *    typo is reported as "input file not found" rather than sent to the agent as a message;
 * 6. everything else is a direct message.
 */
export async function detectInput(input: string, cwd: string): Promise<Detection> {
  const lower = input.toLowerCase();
  const path = resolve(cwd, input);
  if (input.startsWith('scripts.') && !isFileNamedScripts(lower) && !(await isFile(path))) return { mode: 'other' };
  if (lower.endsWith('.jsonl')) return { mode: 'file', path };
  if (couldBePath(input)) {
    const kind = await stat(path).then(
      (s) => (s.isFile() ? 'file' : 'other'),
      () => 'missing',
    );
    if (kind === 'file') return (await looksLikeJsonl(path)) ? { mode: 'file', path } : { mode: 'other' };
    if (kind === 'other') return { mode: 'other' };
  }
  if (looksLikeGlob(input)) return { mode: 'other' };
  if (looksLikePath(input) || lower.endsWith('.json')) return { mode: 'missing', path };
  return { mode: 'message' };
}

/** `scripts.jsonl` / `scripts.json`: a file's name, which no script reference (`scripts.<assistant>.<module>`) is. */
function isFileNamedScripts(lower: string): boolean {
  return lower === 'scripts.jsonl' || lower === 'scripts.json';
}

function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** Worth a `stat`: one line, no control characters, not absurdly long. */
function couldBePath(input: string): boolean {
  return input.length > 0 && input.length < 4096 && !/[\n\r\0]/.test(input);
}

/**
 * A glob: no spaces, a glob character, and a path shape (`tests/**`, `*.test.ts`). A question such
 * as `why?` has the character but not the shape, and stays a message.
 */
function looksLikeGlob(input: string): boolean {
  return (
    !/\s/.test(input) &&
    /[*?[\]{}]/.test(input) &&
    (/[/\\]/.test(input) || input.startsWith('*') || /\.[A-Za-z][\w]{0,7}$/.test(input))
  );
}

/** A relative or absolute path with a directory and an extension, or an explicit `./`, `../`, `/`, `~/`. */
function looksLikePath(input: string): boolean {
  if (/\s/.test(input) || input.includes('://')) return false;
  if (/^(\.{1,2}[/\\]|[/\\]|~[/\\])/.test(input)) return true;
  return /[/\\]/.test(input) && /\.[A-Za-z][\w]{0,7}$/.test(input);
}

/** Whether the first line that is neither blank nor a `//` comment starts a JSON object. */
async function looksLikeJsonl(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    for (const line of buffer
      .toString('utf8', 0, bytesRead)
      .replace(/^\uFEFF/, '')
      .split('\n')) {
      const text = line.trim();
      if (text && !text.startsWith('//')) return text.startsWith('{');
    }
    return false;
  } finally {
    await handle.close();
  }
}
