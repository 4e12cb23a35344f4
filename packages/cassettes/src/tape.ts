import type { RecordedChunk } from './entry.js';

/** What a live call leaves to be recorded: its whole reply, or its chunks with their time offsets. */
export interface Recorded {
  reply?: unknown;
  chunks?: RecordedChunk[];
}

/**
 * Handed to a connector's live call, which passes its wire reply through it: `body()` for a whole
 * reply, `stream()` for a streamed one (each chunk is kept with its offset as it goes by). A retried
 * attempt passes its own reply through again, so only the attempt that answered is kept.
 */
export interface Recorder {
  body<T>(reply: T): T;
  stream<T>(chunks: AsyncIterable<T>): AsyncIterable<T>;
}

/** Records nothing: what a live call gets when no cassette is being written. */
export const PASS_THROUGH: Recorder = { body: (reply) => reply, stream: (chunks) => chunks };

export class Tape implements Recorder {
  recorded?: Recorded;
  /** Offsets count from the request, so the wait for the first chunk is part of the timing. */
  private readonly started = performance.now();

  body<T>(reply: T): T {
    this.recorded = { reply };
    return reply;
  }

  stream<T>(source: AsyncIterable<T>): AsyncIterable<T> {
    const chunks: RecordedChunk[] = [];
    this.recorded = { chunks };
    const started = this.started;
    return (async function* () {
      for await (const data of source) {
        chunks.push({ t: Math.round(performance.now() - started), data });
        yield data;
      }
    })();
  }
}

/** Stored chunks as a stream again; with `pace`, each arrives at its recorded offset. */
export async function* replayChunks(chunks: readonly RecordedChunk[], pace: boolean): AsyncGenerator<unknown> {
  const started = performance.now();
  for (const chunk of chunks) {
    const wait = chunk.t - (performance.now() - started);
    if (pace && wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    yield chunk.data;
  }
}
