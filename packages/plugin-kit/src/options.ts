import * as z from 'zod';
import { AgentestError } from '@agentest/kernel';
import {
  sandboxOptions,
  sandboxOptionsSchema,
  type SandboxOptions,
  type ScriptPoolOptions,
} from '@agentest/plugin-script/sandbox';
import { DEFAULT_INCLUDE } from './discover.js';

export interface KitOptions {
  /** Globs for test files when `-i` names a directory (default `tests/**\/*.test.{ts,js,mts}`). */
  include?: string | string[];
  /** The agent `ctx.run` and data cases use when `-n` is not given (a config agent id). */
  agent?: string;
  /**
   * The script sandbox's threads, memory and the environment variables `test()` files may read (`script` options of the
   * config).
   */
  sandbox?: SandboxOptions;
}

export interface ValidatedKitOptions {
  include: string[];
  agent?: string;
  sandbox: ScriptPoolOptions;
}

const shape = z.strictObject({
  include: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
  agent: z.string().min(1).optional(),
  sandbox: sandboxOptionsSchema.optional(),
});

export function validateKitOptions(options: unknown, plugin: string): ValidatedKitOptions {
  const parsed = shape.safeParse(options ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.path.join('.') || 'options';
    throw new AgentestError(
      'PLUGIN_INVALID',
      `${plugin} options: ${key}: ${issue.message} (options are { include?: string | string[], agent?: string, sandbox?: { maxThreads?, memoryLimitMb?, env? } })`,
      { where: plugin },
    );
  }
  const { include, agent, sandbox = {} } = parsed.data;
  return {
    include: include === undefined ? DEFAULT_INCLUDE : typeof include === 'string' ? [include] : include,
    ...(agent ? { agent } : {}),
    sandbox: sandboxOptions(sandbox),
  };
}

// The config's `kit` section is this plugin's options; the sandbox comes from the config's `script`.
declare module '@agentest/kernel' {
  interface AgentestConfigExtensions {
    /** agentest-kit `test()` files: the include globs and the default agent. */
    kit?: Omit<KitOptions, 'sandbox'>;
  }
}
