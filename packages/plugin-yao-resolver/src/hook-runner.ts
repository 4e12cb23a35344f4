import { AgentestError } from '@agentest/kernel';
import type { YaoRuntimeOptions } from '@agentest/plugin-script';

/** What the script sandbox answers for one function call. */
export type HookCallResult =
  | { status: 'ok'; value: unknown; logs?: string[] }
  | { status: 'missing'; logs?: string[] }
  | { status: 'error' | 'timeout'; error: string; logs?: string[] };

/** The slice of `@agentest/plugin-script`'s pool that hooks need. */
export interface HookPool {
  call(
    request: { file: string; fn: string; args: unknown[]; timeoutMs: number; yao?: YaoRuntimeOptions },
    signal?: AbortSignal,
  ): Promise<HookCallResult>;
  /** Starts the sandbox's threads, bundles `files`, and resolves when both are done. */
  warm?(files?: readonly string[]): Promise<void>;
}

export interface HookOutcome {
  /** false when the script does not define the function: the hook is skipped. */
  ran: boolean;
  value?: unknown;
  logs: string[];
}

/**
 * Calls `Create`/`Next` in an assistant's `src/index.ts`. A missing function is skipped; a throw or a
 * timeout becomes a HookError whose message is the hook's, which the agent executor records as the
 * case's `error`. `runtime` gives a hook file Yao's runtime (`Process()`, `ctx.Send`, …).
 */
export class HookRunner {
  private pool?: Promise<{ pool: HookPool; release(): void | Promise<void> }>;

  constructor(
    private readonly acquire: () => Promise<{ pool: HookPool; release(): void | Promise<void> }>,
    private readonly timeoutMs: number,
    private readonly runtime?: (file: string) => Promise<YaoRuntimeOptions>,
  ) {}

  async call(file: string, fn: 'Create' | 'Next', args: unknown[], signal: AbortSignal): Promise<HookOutcome> {
    const yao = await this.runtime?.(file);
    const result = await this.callFunction(file, fn, args, signal, yao);
    const logs = result.logs ?? [];
    switch (result.status) {
      case 'ok':
        return { ran: true, value: result.value, logs };
      case 'missing':
        return { ran: false, logs };
      case 'timeout':
        throw new HookError(fn, `timed out after ${this.timeoutMs}ms`, logs);
      default:
        throw new HookError(fn, result.error, logs);
    }
  }

  /** Any function of a script in the sandbox (a tool's process, say), under the same time limit as hooks. */
  async callFunction(
    file: string,
    fn: string,
    args: unknown[],
    signal: AbortSignal,
    yao?: YaoRuntimeOptions,
  ): Promise<HookCallResult> {
    const { pool } = await this.held();
    return pool.call({ file, fn, args, timeoutMs: this.timeoutMs, ...(yao ? { yao } : {}) }, signal);
  }

  /**
   * Starts the sandbox before the first case, so that its start-up is not counted in the first
   * cases' durations. A sandbox that cannot start is reported by the hook calls themselves.
   */
  async warm(files: readonly string[]): Promise<void> {
    try {
      const { pool } = await this.held();
      await pool.warm?.(files);
    } catch {
      // The first hook call reports why.
    }
  }

  private held(): Promise<{ pool: HookPool; release(): void | Promise<void> }> {
    return (this.pool ??= this.acquire().catch((error: unknown) => {
      this.pool = undefined;
      throw error;
    }));
  }

  async close(): Promise<void> {
    const pending = this.pool;
    this.pool = undefined;
    if (pending) await (await pending.catch(() => undefined))?.release();
  }
}

/**
 * A hook that threw: the message is the hook's own, prefixed by which hook it was. `logs` is what the
 * hook printed before it threw, often the best clue to why.
 */
export class HookError extends Error {
  override readonly name = 'HookError';
  constructor(
    readonly hook: string,
    detail: string,
    readonly logs: string[] = [],
  ) {
    super(`${hook} hook failed: ${detail}`);
  }
}

/** Wraps a hook's malformed return value in a message that says what shape is expected. */
export function hookShapeError(hook: string, file: string, problem: string): AgentestError {
  return new AgentestError('SCRIPT_INVALID', `${file}: ${hook} returned ${problem}`, { where: file });
}
