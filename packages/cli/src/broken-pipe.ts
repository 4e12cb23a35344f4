import type { TextStream } from '@agentest/report';

const guarded = new WeakSet<TextStream>();

/**
 * Keeps the process alive when its stdout or stderr goes away: `agentest test … | head -3` closes
 * the pipe, and the next write fails with EPIPE. Unhandled, that error ends the process at once:
 * the running cases are lost and no file report is written. Terminal output is best effort, so the
 * error is absorbed here (the console reporter stops printing on its own), and the run finishes,
 * writes its files and exits with the code its results give.
 */
export function surviveClosedPipes(...streams: TextStream[]): void {
  for (const stream of streams) {
    // An embedding program may hand in a bare `{ write }` sink: it has no errors to absorb.
    if (typeof stream.on !== 'function' || guarded.has(stream)) continue;
    guarded.add(stream);
    stream.on('error', () => {});
  }
}
