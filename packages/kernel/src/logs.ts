import type { HookLog } from './types/test-case.js';

/**
 * Collects what lifecycle hooks (Before, After, BeforeAll, AfterAll) print while the kernel runs them,
 * under their hook's name; nothing is allocated for hooks that print nothing. Reporters read the lines
 * back with the runs' own through `caseLogs` (@agentest/report).
 */
export class HookLines<K extends string> {
  private lines?: Partial<Record<K, string[]>>;

  to(key: K): HookLog {
    return (lines) => {
      if (!lines.length) return;
      const all: Partial<Record<K, string[]>> = (this.lines ??= {});
      const list = (all[key] ??= []);
      for (const line of lines) list.push(line);
    };
  }

  /** What was printed, by hook, or undefined when no hook printed anything. */
  get collected(): Partial<Record<K, string[]>> | undefined {
    return this.lines;
  }
}
