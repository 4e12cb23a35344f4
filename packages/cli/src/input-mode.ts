import { statSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * How the CLI reads `-i`, for its own decisions (where output goes, whether the reply is printed);
 * the load plugins decide what the input means. Yao's rules, plus directories and globs.
 */
export type InputMode = 'script' | 'file' | 'directory' | 'glob' | 'message' | 'generated';

export function detectInputMode(input: string, cwd: string): InputMode {
  const kind = statKind(resolve(cwd, input));
  // A script reference, unless it names a file (`scripts.jsonl`, existing or not).
  if (input.startsWith('scripts.') && kind !== 'file' && !/^scripts\.jsonl?$/i.test(input)) return 'script';
  // Cases a generator makes (Yao sends these to the agent as a message, W1).
  if (input.startsWith('agents:') || input.startsWith('scripts:')) return 'generated';
  if (kind === 'directory') return 'directory';
  if (kind === 'file' || /\.jsonl?$/i.test(input)) return 'file';
  if (/[*?{]/.test(input) && /[\\/]|\.\w+$/.test(input) && !/\s/.test(input)) return 'glob';
  return 'message';
}

function statKind(path: string): 'file' | 'directory' | undefined {
  try {
    const stat = statSync(path);
    return stat.isDirectory() ? 'directory' : stat.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
}
