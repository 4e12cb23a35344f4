import * as z from 'zod';
import { AgentestError } from '@agentest/kernel';
import type { ScriptPoolOptions } from './pool/types.js';

const duration = z.union([z.number().positive(), z.string().min(1)]);

/** A stand-in for a Yao process that needs a server: a module function, or a fixed value. */
const processStub = z.union(
  [
    z.strictObject({ module: z.string().min(1), export: z.string().min(1).optional() }),
    z.strictObject({ value: z.unknown() }),
  ],
  { error: 'expected { module: "./stubs/file.ts", export?: "Function" } or { value: <data> }' },
);

const sandboxShape = {
  /** Worker threads for the shared sandbox (default: available parallelism). */
  maxThreads: z.number().int().min(1).optional(),
  /** Heap limit per worker in MB (default 256). */
  memoryLimitMb: z.number().int().min(8).optional(),
  /**
   * Environment variables scripts, hooks and `test()` files may read (`process.env.X`), besides `TZ`,
   * `LANG` and `NODE_ENV`. Nothing else reaches the sandbox, connector keys included.
   */
  env: z
    .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name such as "API_BASE"'))
    .optional(),
};

/** The `sandbox` option of the assistant and kit plugins: the shared sandbox's settings. */
export const sandboxOptionsSchema = z.strictObject(sandboxShape);
export type SandboxOptions = z.input<typeof sandboxOptionsSchema>;

export const scriptOptionsSchema = z.strictObject({
  ...sandboxShape,
  /** The app root `scripts.*` resolves from (default: the nearest `app.yao` above the working directory, else it). */
  root: z.string().min(1).optional(),
  /** Time limit of one `script` assertion, Go duration or ms (default 30s). */
  assertionTimeout: duration.optional(),
  /** Stubs for the Yao processes script tests call through `Process()` (`models.*`, `utils.*`, …), by name. */
  processes: z.record(z.string().min(1), processStub).optional(),
  /** Before/after hook functions for JSONL suites, resolved in the assistant's `src/` (`env_test.Before`). */
  hooks: z
    .strictObject({
      before: z.string().min(1).optional(),
      after: z.string().min(1).optional(),
      beforeAll: z.string().min(1).optional(),
      afterAll: z.string().min(1).optional(),
    })
    .optional(),
});

export type ScriptOptions = z.input<typeof scriptOptionsSchema>;
export type ScriptHookRefs = NonNullable<ScriptOptions['hooks']>;

export function parseScriptOptions(options: unknown): z.output<typeof scriptOptionsSchema> {
  const parsed = scriptOptionsSchema.safeParse(options ?? {});
  if (!parsed.success)
    throw new AgentestError('PLUGIN_INVALID', `agentest:script options: ${z.prettifyError(parsed.error)}`, {
      where: 'agentest:script',
    });
  return parsed.data;
}

/**
 * The settings of the sandbox every user of it shares (threads, memory, environment), from script
 * options. The assistant and kit plugins take the same object as their `sandbox` option.
 */
export function sandboxOptions(options: SandboxOptions): ScriptPoolOptions {
  return {
    ...(options.maxThreads !== undefined ? { maxThreads: options.maxThreads } : {}),
    ...(options.memoryLimitMb !== undefined ? { memoryLimitMb: options.memoryLimitMb } : {}),
    ...(options.env ? { env: options.env } : {}),
  };
}

// The config's `script` section is this plugin's options (docs/cli.md): declared here, so `defineConfig` knows it.
declare module '@agentest/kernel' {
  interface AgentestConfigExtensions {
    /** The script plugin: the sandbox's threads, memory and environment, Yao's global hooks, reply sizes. */
    script?: ScriptOptions;
  }
}
