import type { Sink } from './quiet-sink.js';
import type { Style } from './style.js';

/**
 * One status line at the bottom of a TTY, redrawn in place: `[37/120] 30.8% · 2 failed · 12.3 cases/s · ETA 9s`.
 * Everything else printed goes above it: `clear()` before writing, `draw()` after.
 */
export class Progress {
  private done = 0;
  private failed = 0;
  private total = 0;
  private started = 0;
  private visible = false;

  constructor(private readonly out: Sink, private readonly style: Style, private readonly enabled: boolean) {}

  begin(total: number): void {
    this.total = total;
    this.started = performance.now();
  }

  record(failed: boolean): void {
    this.done++;
    if (failed) this.failed++;
  }

  /** The run is over: the line is cleared and never drawn again. */
  finish(): void {
    this.clear();
    this.total = 0;
  }

  clear(): void {
    if (!this.visible) return;
    this.out.write('\r\x1b[2K');
    this.visible = false;
  }

  draw(): void {
    if (!this.enabled || this.total === 0 || this.done >= this.total) return;
    this.out.write(`\r\x1b[2K${this.style.paint('dim', this.line())}`);
    this.visible = true;
  }

  line(now = performance.now()): string {
    const seconds = Math.max((now - this.started) / 1000, 1e-3);
    const rate = this.done / seconds;
    const percent = ((this.done / this.total) * 100).toFixed(1);
    const eta = rate > 0 ? `ETA ${Math.ceil((this.total - this.done) / rate)}s` : 'ETA –';
    return `[${this.done}/${this.total}] ${percent}% · ${this.failed} failed · ${rate.toFixed(1)} cases/s · ${eta}`;
  }
}
