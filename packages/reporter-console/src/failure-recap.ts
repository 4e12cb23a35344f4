import type { DeepReadonly, ResultEvent } from '@agentest/kernel';
import { terminalSafe as safe, type LayoutPrinter as Printer } from '@agentest/report';
import { lightRule, STATUS_COLOUR, truncate } from './text.js';

/** How many failed cases the recap names; the rest are counted. */
const LISTED = 50;

/**
 * The failed cases again at the end of the output (id, name, first reason), so that nobody scrolls
 * back through hundreds of lines. Only what the recap prints is kept.
 */
export class FailureRecap {
  private readonly listed: { id: string; name?: string; status: ResultEvent['status']; reason: string }[] = [];
  private count = 0;

  record(result: DeepReadonly<ResultEvent>): void {
    if (result.status === 'passed' || result.status === 'skipped') return;
    this.count++;
    if (this.listed.length >= LISTED) return;
    // The kernel's error is the first reason: the agent's error, or the first failed assertion's message.
    const reason = truncate((result.error ?? result.status).split('\n')[0]!, 120);
    this.listed.push({
      id: result.id,
      ...(result.name && result.name !== result.id ? { name: result.name } : {}),
      status: result.status,
      reason,
    });
  }

  print(p: Printer): void {
    if (!this.count) return;
    p.lines([lightRule, `  Failed Cases (${this.count})`, lightRule].map((t) => p.paint('dim', t)));
    for (const f of this.listed) {
      const label = `[${safe(f.id)}]${f.name ? ` ${safe(truncate(f.name, 40))}` : ''}`;
      p.line(
        `  ${p.paint(STATUS_COLOUR[f.status], '✗')} ${p.paint('bold', label)} ${p.paint('dim', `${f.status}:`)} ${safe(f.reason)}`,
      );
    }
    if (this.count > this.listed.length)
      p.line(p.paint('dim', `  … and ${this.count - this.listed.length} more (see the report files)`));
  }
}
