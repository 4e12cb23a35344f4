/** Log lines a script may keep on its result; past these, lines are counted, not kept. */
export const MAX_LOG_LINES = 1000;
export const MAX_LOG_CHARS = 200_000;

/**
 * The array a script's `console.*` and `t.log` write into, bounded: a script that logs in a loop
 * must not grow the worker's memory or the event stream without limit. Whatever is dropped is
 * summarised in one last line, so the result still says that it happened.
 */
export function boundedLogs(maxLines = MAX_LOG_LINES, maxChars = MAX_LOG_CHARS): string[] {
  const logs: string[] = [];
  let chars = 0;
  let dropped = 0;
  const push = Array.prototype.push;
  Object.defineProperty(logs, 'push', {
    enumerable: false,
    value(...lines: string[]): number {
      for (const line of lines) {
        if (dropped === 0 && logs.length < maxLines && chars + line.length <= maxChars) {
          push.call(logs, line);
          chars += line.length;
        } else {
          if (dropped === 0) push.call(logs, '');
          dropped++;
          logs[logs.length - 1] =
            `… ${dropped} more log line${dropped === 1 ? '' : 's'} not kept (limit ${maxLines} lines / ${maxChars} characters)`;
        }
      }
      return logs.length;
    },
  });
  return logs;
}
