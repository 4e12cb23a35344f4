import vm from 'node:vm';
import type { Sandbox } from './sandbox.js';

/**
 * Compiled bundles, cached per thread by content hash: a test file or a `Process()` target is
 * parsed once per thread however often it runs here.
 */
const scripts = new Map<string, vm.Script>();
const MAX_CACHED = 256;

export function loadedScript(bundle: { key: string; code: string; filename: string }): vm.Script {
  let script = scripts.get(bundle.key);
  if (!script) {
    script = new vm.Script(bundle.code, { filename: bundle.filename });
    if (scripts.size >= MAX_CACHED) scripts.delete(scripts.keys().next().value!);
    scripts.set(bundle.key, script);
  }
  return script;
}

/** Exports first, then the file's top-level functions, then globals a runtime module installed. */
export function lookup(sandbox: Sandbox, name: string): unknown {
  const mod = sandbox.context.__agentest_module as Record<string, unknown> | undefined;
  const functions = mod?.__agentest_functions as Record<string, unknown> | undefined;
  return [functions?.[name], mod?.[name], sandbox.context[name]].find((f) => typeof f === 'function');
}
