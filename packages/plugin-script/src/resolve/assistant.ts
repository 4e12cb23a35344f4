import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** An assistant found for the leading parts of a dotted reference. */
export interface AssistantMatch {
  /** Path of the assistant directory relative to the root (`assistants/yao/keeper` or `expense`). */
  dir: string;
  /** The assistant id: the path under `assistants/` with `/` → `.` (`yao.keeper`). */
  id: string;
  /** The parts after the assistant: the module path inside `src/`. */
  rest: string[];
  /** True when a `package.yao` marks the directory; false for Yao's fallback split. */
  marked: boolean;
}

/**
 * Splits `parts` into an assistant and the rest as Yao does (§10.1): the longest prefix whose
 * directory holds `package.yao`, under `assistants/` or at the root, wins; nested ids work
 * (`yao.keeper.tests.seed` → assistant `yao/keeper`, module `tests/seed`). Without a marker, the
 * assistant is every part but the last. Returns the candidates in the order they are tried.
 */
export function assistantCandidates(root: string, parts: readonly string[]): AssistantMatch[] {
  for (let i = parts.length - 1; i >= 1; i--) {
    const path = parts.slice(0, i).join('/');
    const id = parts.slice(0, i).join('.');
    const marked = [`assistants/${path}`, path].filter((dir) => existsSync(join(root, dir, 'package.yao')));
    if (marked.length) return marked.map((dir) => ({ dir, id, rest: parts.slice(i), marked: true }));
  }
  const path = parts.slice(0, -1).join('/');
  const id = parts.slice(0, -1).join('.');
  return [`assistants/${path}`, path].map((dir) => ({ dir, id, rest: parts.slice(-1), marked: false }));
}
