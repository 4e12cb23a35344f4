import type * as esbuild from 'esbuild';

/** The names Yao's `@yao/runtime` module offers as values; everything else in it is a type. */
export const YAO_RUNTIME_EXPORTS = [
  'Process',
  'log',
  'Exception',
  'FS',
  'Store',
  'Query',
  'WebSocket',
  'Studio',
  '$L',
  'http',
  'time',
] as const;

/**
 * Real Yao scripts write `import { Process, log } from "@yao/runtime"`; in Yao those are globals and
 * the import only feeds the type checker. Here the import resolves to a tiny module that hands back
 * the sandbox's globals of the same names (see `worker/yao-runtime.ts`), so such files bundle as
 * they are. Type-only imports are erased by esbuild and never reach this module.
 */
export function yaoRuntimeModule(): esbuild.Plugin {
  return {
    name: 'agentest-yao-runtime',
    setup(build) {
      build.onResolve({ filter: /^@yao\/runtime$/ }, (args) => ({ path: args.path, namespace: 'yao-runtime' }));
      build.onLoad({ filter: /.*/, namespace: 'yao-runtime' }, () => ({
        contents: YAO_RUNTIME_EXPORTS.map((name) => `export const ${name} = globalThis[${JSON.stringify(name)}];`).join(
          '\n',
        ),
        loader: 'js',
      }));
    },
  };
}
