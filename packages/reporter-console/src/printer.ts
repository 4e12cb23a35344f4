import type { LayoutPrinter } from '@agentest/report';
import type { Progress } from './progress.js';
import type { Sink } from './quiet-sink.js';
import type { Style } from './style.js';

/** Flush at once past this many pending characters. */
const HIGH_WATER = 16 * 1024;

/**
 * Writes whole lines above the progress line. Lines printed in one turn of the event loop go out in
 * one write: a fast suite prints tens of thousands of lines a second, and a write per line (a
 * syscall each when stdout is a file or a pipe) would cost more than running the cases.
 */
export class Printer implements LayoutPrinter {
  private pending = '';
  private scheduled = false;

  constructor(
    private readonly out: Sink,
    readonly style: Style,
    private readonly progress: Progress,
  ) {}

  line(text = ''): void {
    if (!this.pending) this.progress.clear();
    this.pending += text + '\n';
    if (this.pending.length >= HIGH_WATER) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  lines(texts: readonly string[]): void {
    for (const text of texts) this.line(text);
  }

  /** Writes what is pending, then lets the progress line be drawn again below it. */
  flush(): void {
    this.scheduled = false;
    if (!this.pending) return;
    const text = this.pending;
    this.pending = '';
    this.out.write(text);
    this.progress.draw();
  }

  /** Redraws the progress line when no line is waiting to go above it. */
  refreshProgress(): void {
    if (!this.pending) this.progress.refresh();
  }

  get colour(): boolean {
    return this.style.enabled;
  }

  paint: Style['paint'] = (format, text) => this.style.paint(format, text);
}
