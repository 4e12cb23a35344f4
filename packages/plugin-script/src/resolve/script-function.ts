import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AgentestError } from '@agentest/kernel';
import { assistantCandidates } from './assistant.js';

export interface ResolvedFunction {
  file: string;
  fn: string;
}

/**
 * A process-style reference to a function, as Yao resolves processes: `scripts.test.ValidateOutput`
 * → `<root>/scripts/test.ts` (or `.js`), function `ValidateOutput`; also
 * `scripts.<assistant>.<module>.<Fn>` → `<assistant>/src/<module>.ts`.
 */
export function resolveScriptFunction(ref: string, root: string): ResolvedFunction {
  const parts = ref
    .replace(/^scripts\./, '')
    .split('.')
    .filter(Boolean);
  if (!ref.startsWith('scripts.') || parts.length < 2) {
    throw new AgentestError(
      'ASSERTION_INVALID',
      `invalid script reference ${JSON.stringify(ref)}: use scripts.<module>.<Function>, e.g. scripts.test.ValidateOutput`,
    );
  }
  const fn = parts.at(-1)!;
  const modules = parts.slice(0, -1);
  const candidates = [`scripts/${modules.join('/')}`];
  if (modules.length >= 2) {
    for (const a of assistantCandidates(root, modules)) candidates.push(`${a.dir}/src/${a.rest.join('/')}`);
  }
  const found = firstScript(candidates, root);
  if ('file' in found) return { file: found.file, fn };
  throw new AgentestError(
    'INPUT_NOT_FOUND',
    `script not found for ${ref} (tried: ${found.tried.join(', ')}) in ${root}`,
  );
}

/** The first of `bases` (paths under `root`, no extension) that exists as `.ts` or `.js`, else what was tried. */
export function firstScript(bases: readonly string[], root: string): { file: string } | { tried: string[] } {
  const tried: string[] = [];
  for (const base of bases) {
    for (const ext of ['.ts', '.js']) {
      tried.push(base + ext);
      if (existsSync(join(root, base + ext))) return { file: join(root, base + ext) };
    }
  }
  return { tried };
}
