import type { Progress } from './progress.js';
import type { Style } from './style.js';

/** Writes whole lines above the progress line. */
export class Printer {
  constructor(private readonly out: NodeJS.WritableStream, readonly style: Style, private readonly progress: Progress) {}

  line(text = ''): void {
    this.progress.clear();
    this.out.write(text + '\n');
  }

  lines(texts: readonly string[]): void {
    for (const text of texts) this.line(text);
  }

  paint: Style['paint'] = (format, text) => this.style.paint(format, text);
}
