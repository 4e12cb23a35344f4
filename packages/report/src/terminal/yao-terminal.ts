import type { Status } from '@agentest/kernel';
import type { LayoutPrinter } from './console-layout.js';
import { terminalSafe } from './terminal-safe.js';

/** Yao's terminal vocabulary, shared by the console's layouts for agent and script suites. */

export const WIDTH = 63;
export const heavyRule = '═'.repeat(WIDTH);
export const lightRule = '─'.repeat(WIDTH);

export const STATUS_WORD: Readonly<Record<Status, string>> = {
  passed: 'PASSED',
  failed: 'FAILED',
  error: 'ERROR',
  timeout: 'TIMEOUT',
  skipped: 'SKIPPED',
};

export const STATUS_COLOUR = {
  passed: 'green',
  failed: 'red',
  error: 'red',
  timeout: 'yellow',
  skipped: 'gray',
} as const;

/** `  ⚠ Interrupted: 12 test cases finished, 30 not run` under an interrupted run's summary. */
export function interruptedText(s: { total: number; not_run?: number }): string {
  return `  ⚠ Interrupted: ${s.total} test case${s.total === 1 ? '' : 's'} finished, ${s.not_run ?? 0} not run`;
}

/** What hooks and runs printed, one `│ line` each, escaped for the terminal. */
export function printLogLines(p: LayoutPrinter, lines: readonly string[], indent: string): void {
  for (const line of lines) p.line(p.paint('dim', `${indent}│ ${terminalSafe(line)}`));
}
