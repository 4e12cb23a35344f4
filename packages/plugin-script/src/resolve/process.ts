import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ProcessResolver, ProcessTarget } from '../pool/types.js';
import { resolveScriptFunction } from './script-function.js';

/** A stand-in for a process agentest cannot run: a function of a module, or a fixed (JSON) value. */
export type ProcessStub = { module: string; export?: string } | { value: unknown };

export interface YaoProcessOptions {
  /** The Yao app root: `scripts.*` and `agents.*` are found under it. */
  root?: string;
  /** Stubs by process name (matched without regard to case); they win over the app's own scripts. */
  stubs?: Record<string, ProcessStub>;
  /** Where a stub's relative `module` path starts (default: the process's working directory). */
  cwd?: string;
  /** The sentence that ends the "not available" message: how to stub the named process in the user's config. */
  stubHint?: (name: string) => string;
}

const DEFAULT_HINT = () => 'Stub it with the "processes" option';

/**
 * What `Process(name, ...args)` runs under agentest, as Yao names processes:
 * - a stub from the options, when one has that name;
 * - `scripts.<path>.<Fn>` → `<root>/scripts/<path>.ts|.js` (the `script` assertion's resolution);
 * - `agents.<assistant-id>.<script-id>.<Fn>` → `<root>/assistants/<assistant>/src/<script>.ts|.js`,
 *   ids lower-cased as Yao registers them (§12.5), so the match ignores case;
 * - anything else (`models.*`, `flows.*`, `utils.*`, `fs.*`, …) needs a Yao server: the error says
 *   so and how to stub it.
 */
export function yaoProcessResolver(options: YaoProcessOptions = {}): ProcessResolver {
  const stubs = new Map(Object.entries(options.stubs ?? {}).map(([name, stub]) => [name.toLowerCase(), stub]));
  const hint = options.stubHint ?? DEFAULT_HINT;
  // A hook may call the same process on every case: its files are looked up once per run.
  const found = new Map<string, ProcessTarget>();
  return (name: string): ProcessTarget => {
    let target = found.get(name);
    if (!target) found.set(name, (target = locate(name)));
    return target;
  };

  function locate(name: string): ProcessTarget {
    const stub = stubs.get(name.toLowerCase());
    if (stub)
      return 'value' in stub
        ? { value: stub.value }
        : { file: resolve(options.cwd ?? process.cwd(), stub.module), fn: stub.export ?? name.split('.').at(-1)! };
    const root = options.root;
    const group = name.split('.')[0]!.toLowerCase();
    if ((group === 'scripts' || group === 'agents') && !root)
      throw new Error(`Process("${name}"): the Yao app root is unknown, so ${group}.* cannot be found`);
    if (group === 'scripts') return resolveScriptFunction(`scripts.${name.slice('scripts.'.length)}`, root!);
    if (group === 'agents') return resolveAgentScript(name, root!);
    throw new Error(
      `Process("${name}") is not available under agentest: only scripts.* and agents.* processes run (from the app's files); ${group}.* needs a running Yao. ${hint(name)}.`,
    );
  }
}

/** `agents.yao.keeper.store.Save` → `assistants/yao/keeper/src/store.ts`, function `Save`. */
export function resolveAgentScript(name: string, root: string): ProcessTarget {
  const parts = name.split('.').slice(1);
  const fn = parts.pop();
  if (!fn || parts.length < 2)
    throw new Error(
      `Process("${name}"): use agents.<assistant-id>.<script-id>.<Function>, e.g. agents.keyword.store.Save`,
    );
  const ids = parts.map((p) => p.toLowerCase());
  const assistants = join(root, 'assistants');
  const tried: string[] = [];
  // The longest assistant id that names a directory with a package.yao wins, as for script tests.
  for (let i = ids.length - 1; i >= 1; i--) {
    const dir = findPath(assistants, ids.slice(0, i), (path) => existsSync(join(path, 'package.yao')));
    if (!dir) continue;
    const script = ids.slice(i);
    const file =
      findPath(join(dir, 'src'), [...script.slice(0, -1), `${script.at(-1)}.ts`], isFile) ??
      findPath(join(dir, 'src'), [...script.slice(0, -1), `${script.at(-1)}.js`], isFile);
    if (file && !/_test\.[jt]s$/i.test(file)) return { file, fn };
    tried.push(`${join(dir, 'src', ...script)}.ts`);
  }
  const what = tried.length
    ? `no script file (tried: ${tried.join(', ')})`
    : `no assistant for "${ids.slice(0, -1).join('.')}" under ${assistants} (no package.yao)`;
  throw new Error(`Process("${name}"): ${what}`);
}

/** Walks `segments` below `base`, matching each directory or file name without regard to case. */
function findPath(base: string, segments: string[], accept: (path: string) => boolean): string | undefined {
  let path = base;
  for (const segment of segments) {
    const exact = join(path, segment);
    if (existsSync(exact)) {
      path = exact;
      continue;
    }
    const entry = entries(path).find((name) => name.toLowerCase() === segment);
    if (!entry) return undefined;
    path = join(path, entry);
  }
  return accept(path) ? path : undefined;
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
