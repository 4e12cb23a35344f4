import { AgentestError, type Reporter } from '@agentest/kernel';
import { errorMessage } from '@agentest/kernel/errors';

type Handler = 'onSetup' | 'onStart' | 'onCaseStart' | 'onRunResult' | 'onResult' | 'onSummary' | 'close';

/** How long one call of the fallback may take when it names no limit of its own. */
export const FALLBACK_TIMEOUT_MS = 60_000;

/**
 * The built-in reporter the agent's document falls back on, driven by the LLM reporter itself: each
 * event reaches it just before the LLM reporter handles it, so its document is whole before the agent
 * is asked. A fallback that throws or hangs is reported on its own (exit code 3) and silenced for the
 * rest of the run, while the LLM reporter goes on; the next run of a reused kernel hears it again.
 */
export class Fallback {
  private failed = false;

  constructor(
    readonly reporter: Reporter,
    private readonly reportError: (error: AgentestError) => void,
  ) {}

  /** The longest one call may take. */
  get timeoutMs(): number {
    return this.reporter.timeoutMs ?? FALLBACK_TIMEOUT_MS;
  }

  /** A new run: a fallback that failed in the last one is heard again. */
  reset(): void {
    this.failed = false;
  }

  /** Hands the fallback one call; its synchronous part runs before this returns (`onSetup`). */
  async call<K extends Handler>(method: K, ...args: Parameters<NonNullable<Reporter[K]>>): Promise<void> {
    const handler = this.reporter[method] as ((...a: unknown[]) => unknown) | undefined;
    if (this.failed || !handler) return;
    try {
      const answer = handler.apply(this.reporter, args);
      if (typeof (answer as PromiseLike<void> | undefined)?.then === 'function') await this.within(answer);
    } catch (error) {
      this.failed = true;
      this.reportError(
        new AgentestError(
          'REPORTER_FAILED',
          `reporter "${this.reporter.name}" failed in ${method}: ${errorMessage(error)}`,
          { cause: error },
        ),
      );
    }
  }

  private async within(answer: unknown): Promise<void> {
    const limit = this.timeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${limit} ms`)), limit);
    });
    try {
      await Promise.race([answer, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
