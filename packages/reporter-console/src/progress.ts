import type { Sink } from './quiet-sink.js';
import type { Style } from './style.js';
import { terminalSafe as safe } from '@agentest/report';

/** How many running case ids the line names before it only counts the rest. */
const SHOWN_IN_FLIGHT = 3;

/**
 * One status line at the bottom of a TTY, redrawn in place: `[37/120] 30.8% · 2 failed · 12.3 cases/s · ETA 9s`.
 * With several runs per case it counts runs and names the cases in flight:
 * `[37/360 runs] 10.3% · 2 failed · 12.3 runs/s · ETA 26s · running T004, T007 +2`.
 * Everything else printed goes above it: `clear()` before writing, `draw()` after.
 */
export class Progress {
  private done = 0;
  private failed = 0;
  private total = 0;
  private runsPerCase = 1;
  private started = 0;
  private visible = false;
  private drawnAt = 0;
  private readonly inFlight = new Set<string>();

  constructor(
    private readonly out: Sink,
    private readonly style: Style,
    readonly enabled: boolean,
  ) {}

  begin(totalCases: number, runsPerCase = 1): void {
    this.runsPerCase = runsPerCase;
    this.total = totalCases * runsPerCase;
    this.started = performance.now();
  }

  /** A case started a run (`case_start`); with several runs per case it is in flight until its result. */
  caseStarted(id: string): void {
    if (this.runsPerCase > 1) this.inFlight.add(id);
  }

  /** One run ended (`run_result`); counted only when runs are what the line counts. */
  runFinished(failed: boolean): void {
    if (this.runsPerCase > 1) this.count(failed);
  }

  /** One case ended (`result`). */
  record(failed: boolean, id?: string, runs = 1): void {
    if (this.runsPerCase === 1) return this.count(failed);
    if (id !== undefined) this.inFlight.delete(id);
    // A case that never ran its runs (skipped, or its Before hook failed) still uses up its share.
    const missing = this.runsPerCase - runs;
    if (missing > 0) this.done += missing;
  }

  private count(failed: boolean): void {
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
    this.drawnAt = performance.now();
  }

  /** Redraws between printed lines (a run ended, nothing was printed), at most ten times a second. */
  refresh(): void {
    if (performance.now() - this.drawnAt >= 100) this.draw();
  }

  line(now = performance.now()): string {
    const unit = this.runsPerCase > 1 ? 'runs' : 'cases';
    const seconds = Math.max((now - this.started) / 1000, 1e-3);
    const rate = this.done / seconds;
    const percent = ((this.done / this.total) * 100).toFixed(1);
    const eta = rate > 0 ? `ETA ${Math.ceil((this.total - this.done) / rate)}s` : 'ETA –';
    const counter = this.runsPerCase > 1 ? `[${this.done}/${this.total} runs]` : `[${this.done}/${this.total}]`;
    return `${counter} ${percent}% · ${this.failed} failed · ${rate.toFixed(1)} ${unit}/s · ${eta}${this.running()}`;
  }

  private running(): string {
    if (!this.inFlight.size) return '';
    const ids = [...this.inFlight].slice(0, SHOWN_IN_FLIGHT).map((id) => safe(id));
    const more = this.inFlight.size - ids.length;
    return ` · running ${ids.join(', ')}${more > 0 ? ` +${more}` : ''}`;
  }
}
