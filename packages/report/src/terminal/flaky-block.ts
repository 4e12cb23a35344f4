import type { DeepReadonly, SummaryEvent } from '@agentest/kernel';
import type { LayoutPrinter as Printer } from './console-layout.js';
import { terminalSafe as safe } from './terminal-safe.js';

/** The most flaky cases the console names; the reports list them all. */
const SHOWN = 10;

/**
 * The cases whose outcome flips between runs of the same agent, config and model (from the run
 * history), most flaky first: how often it flipped and the flip rate's 95% Wilson interval.
 */
export function printFlaky(p: Printer, s: DeepReadonly<SummaryEvent>, indent = '  '): void {
  if (!s.flaky?.length) return;
  const sorted = [...s.flaky].sort((a, b) => b.flip_rate - a.flip_rate || a.id.localeCompare(b.id));
  p.lines(['', p.paint('bold', `${indent}Flaky (from the run history): ${s.flaky.length}`)]);
  for (const f of sorted.slice(0, SHOWN))
    p.line(
      `${indent}${p.paint('yellow', '~')} [${safe(f.id)}] flipped ${f.flips} of ${f.transitions} times (flip rate ${percent(f.flip_rate)}, 95% CI ${percent(f.flip_rate_ci[0])}–${percent(f.flip_rate_ci[1])})`,
    );
  if (sorted.length > SHOWN) p.line(p.paint('dim', `${indent}  … and ${sorted.length - SHOWN} more in the report`));
}

function percent(value: number): string {
  return `${Math.round(value * 100)}%`;
}
