import type { TextStream } from '@agentest/report';

/** What the console writes to: text in, nothing awaited. */
export interface Sink {
  write(text: string): unknown;
}

/**
 * Terminal output is best effort. When the stream fails, typically because the reader of a pipe
 * went away (`agentest test … | head -3` gives EPIPE), printing stops quietly: the error is not
 * left unhandled (which would end the process), and the run, its file reports and its exit code
 * carry on unaffected.
 */
export function quietSink(stream: TextStream): Sink {
  let broken = false;
  // An embedding program may hand in a bare `{ write }` sink, which has no error events.
  if (typeof stream.on === 'function') {
    stream.on('error', () => {
      broken = true;
    });
  }
  const closed = stream as { destroyed?: boolean; writableEnded?: boolean };
  return {
    write(text) {
      if (broken || closed.destroyed || closed.writableEnded) return false;
      return stream.write(text);
    },
  };
}
