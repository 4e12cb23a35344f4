import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { AgentestError } from '@agentest/kernel';

/** Why a case does not run when another test of the run is marked `.only`. */
export const NOT_FOCUSED = 'not marked .only (another test is)';

/** A registration as far as focus goes: its name, its file (absolute) and its `.only` mark. */
export interface Focusable {
  name: string;
  file?: string;
  only?: boolean;
}

/**
 * Refuses a run that meets `test.only` (on CI, unless allowed): the first focused test is named by
 * `file:line`, so the `.only` left in by mistake is found at once instead of skipping the rest.
 */
export function forbidFocus(tests: readonly Focusable[], cwd: string): void {
  const focused = tests.find((t) => t.only);
  if (!focused) return;
  const shown = focused.file ? relative(cwd, focused.file) || focused.file : undefined;
  const line = focused.file ? lineOf(focused.file, focused.name) : undefined;
  const where = shown ? (line ? `${shown}:${line}` : shown) : `test "${focused.name}"`;
  const also = tests.filter((t) => t.only).length - 1;
  throw new AgentestError(
    'ONLY_FORBIDDEN',
    `${where}: test.only(${JSON.stringify(focused.name)}) would skip every other case${also > 0 ? ` (and ${also} more test${also === 1 ? ' is' : 's are'} marked .only)` : ''}; ` +
      'CI is set, so focused tests are refused: remove the .only, or pass --allow-only',
    { where },
  );
}

/** The line of `only("<name>"` in a test file, read from its source; undefined when it cannot be found. */
function lineOf(file: string, name: string): number | undefined {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const quoted = ['"', "'", '`'].map((q) => `${q}${name}${q}`);
  const lines = source.split('\n');
  const exact = lines.findIndex((l) => /\bonly\s*\(/.test(l) && quoted.some((q) => l.includes(q)));
  const index = exact >= 0 ? exact : lines.findIndex((l) => /\.only\s*\(/.test(l));
  return index >= 0 ? index + 1 : undefined;
}
