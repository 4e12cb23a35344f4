import type { DeepReadonly, SummaryEvent } from '@agentest/kernel';
import {
  conversationSummary,
  dynamicOf,
  dynamicOfRun,
  hasRobustness,
  printLogLines,
  robustnessLine,
  terminalSafe as safe,
  type LayoutPrinter as Printer,
  type ReadonlyResult,
} from '@agentest/report';
import { compact, truncate } from './text.js';

/**
 * Under a dynamic case: one line with its turns, why it ended and each checkpoint (`greeting@1` is
 * reached on turn 1, `✗` is required and not reached); with `-v`, the conversation turn by turn.
 * Given a run (`--runs` > 1), that run's conversation, since each run talks its own way.
 */
export function printConversation(
  p: Printer,
  of: ReadonlyResult | ReadonlyResult['runs'][number],
  verbose: boolean,
  indent: string,
): void {
  const dynamic = 'runs' in of ? dynamicOf(of) : dynamicOfRun(of);
  if (!dynamic) return;
  p.line(p.paint('dim', `${indent}└─ ${safe(conversationSummary(dynamic))}`));
  if (!verbose) return;
  const lines: string[] = [];
  for (const turn of dynamic.turns) {
    if (turn.input !== null) lines.push(`${turn.turn}. user (${turn.from}): ${truncate(turn.input, 100)}`);
    if (turn.output !== undefined) lines.push(`${turn.turn}. agent: ${truncate(compact(turn.output), 100)}`);
    if (turn.checkpoints_reached?.length) lines.push(`   ✓ ${turn.checkpoints_reached.join(', ')}`);
  }
  if (dynamic.final_message) lines.push(`user (done): ${truncate(dynamic.final_message, 100)}`);
  printLogLines(p, lines, indent);
}

/**
 * `--fuzz`: how many cases were fuzzed and how many not, each case's verdict next to its variants' pass
 * rate and the inputs that broke it, then each case that had nothing to perturb, with why.
 */
export function printRobustness(p: Printer, s: DeepReadonly<SummaryEvent>): void {
  if (!hasRobustness(s)) return;
  p.lines(['', `${p.paint('bold', '  Robustness (--fuzz)')}: ${robustnessLine(s)}`]);
  for (const r of s.robustness ?? []) {
    const rate = `${Math.round(r.pass_rate * 100)}%`;
    const colour = r.pass_rate === 1 ? 'green' : r.pass_rate >= 0.8 ? 'yellow' : 'red';
    p.line(
      `  [${safe(r.id)}] ${r.original}; variants ${p.paint(colour, `${r.passed}/${r.variants} passed (${rate})`)}`,
    );
    for (const broken of r.broken ?? [])
      p.line(
        p.paint('dim', `    ✗ ${broken.perturbation}: ${safe(truncate(compact(broken.input), 60))} → ${broken.status}`),
      );
  }
  for (const n of s.not_fuzzed ?? []) p.line(p.paint('dim', `  [${safe(n.id)}] not fuzzed: ${safe(n.reason)}`));
}
