import { z } from 'zod';
import { AgentestError } from '@agentest/kernel';

const duration = z.union([z.number().positive(), z.string().min(1)]);

/** A stand-in for a Yao process that needs a server: a module function, or a fixed value. */
const processStub = z.union(
  [z.strictObject({ module: z.string().min(1), export: z.string().min(1).optional() }), z.strictObject({ value: z.unknown() })],
  { error: 'expected { module: "./stubs/file.ts", export?: "Function" } or { value: <data> }' },
);

export const scriptOptionsSchema = z.strictObject({
  /** Worker threads for the shared sandbox (default: available parallelism). */
  maxThreads: z.number().int().min(1).optional(),
  /** Heap limit per worker in MB (default 256). */
  memoryLimitMb: z.number().int().min(8).optional(),
  /** The app root `scripts.*` resolves from (default: the nearest `app.yao` above the working directory, else it). */
  root: z.string().min(1).optional(),
  /** Time limit of one `script` assertion, Go duration or ms (default 30s). */
  assertionTimeout: duration.optional(),
  /** Stubs for the Yao processes script tests call through `Process()` (`models.*`, `utils.*`, …), by name. */
  processes: z.record(z.string().min(1), processStub).optional(),
  /** Before/after hook functions for JSONL suites, resolved in the assistant's `src/` (`env_test.Before`). */
  hooks: z.strictObject({
    before: z.string().min(1).optional(),
    after: z.string().min(1).optional(),
    beforeAll: z.string().min(1).optional(),
    afterAll: z.string().min(1).optional(),
  }).optional(),
});

export type ScriptOptions = z.input<typeof scriptOptionsSchema>;
export type ScriptHookRefs = NonNullable<ScriptOptions['hooks']>;

export function parseScriptOptions(options: unknown): z.output<typeof scriptOptionsSchema> {
  const parsed = scriptOptionsSchema.safeParse(options ?? {});
  if (!parsed.success) throw new AgentestError('PLUGIN_INVALID', `agentest:script options: ${z.prettifyError(parsed.error)}`, { where: 'agentest:script' });
  return parsed.data;
}
