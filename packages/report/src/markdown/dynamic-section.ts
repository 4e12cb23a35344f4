import type { DeepReadonly, Summary } from '@agentest/kernel';
import { conversationSummary, type DynamicDetails } from '../dynamic.js';
import { hasRobustness, robustnessLine } from '../robustness-text.js';
import { displayValue, truncate } from '../text.js';
import { inline, table } from './syntax.js';

/** A dynamic case's conversation: its summary line, a table of turns, and the checkpoints. */
export function conversationSection(d: DeepReadonly<DynamicDetails>, size: number): string {
  const turns = d.turns.map((t) => [
    String(t.turn),
    t.input === null ? '' : `${t.from === 'input' ? '(input) ' : ''}${truncate(t.input, size)}`,
    t.error ? `ERR: ${truncate(t.error, size)}` : t.output === undefined ? '' : truncate(displayValue(t.output), size),
    (t.checkpoints_reached ?? []).join(', '),
    `${Math.round(t.duration_ms)} ms`,
  ]);
  const checkpoints = d.checkpoints.map((c) => [
    c.id,
    c.reached ? `✅ turn ${c.reached_at_turn}` : c.required ? '❌ not reached' : '– not reached (optional)',
    c.waiting_for?.length ? `waiting for ${c.waiting_for.join(', ')}` : truncate(c.error ?? c.message ?? '', size),
  ]);
  return [
    `**Conversation:** ${inline(conversationSummary(d))}`,
    table(['Turn', 'User', 'Agent', 'Reached', 'Time'], turns),
    ...(d.final_message ? [`**The user ended with:** ${inline(d.final_message)}`] : []),
    `**Checkpoints**\n\n${table(['Checkpoint', 'Reached', 'Detail'], checkpoints)}`,
  ].join('\n\n');
}

/** `--fuzz`: robustness per case, and the cases that had nothing to perturb. */
export function robustnessSection(summary: DeepReadonly<Summary>): string {
  if (!hasRobustness(summary)) return '';
  const rows = (summary.robustness ?? []).map((r) => [
    r.id,
    r.original,
    `${r.passed}/${r.variants} (${Math.round(r.pass_rate * 100)}%)`,
    (r.broken ?? []).map((b) => `${b.perturbation}: ${truncate(displayValue(b.input), 60)} → ${b.status}`).join('\n'),
  ]);
  const notFuzzed = (summary.not_fuzzed ?? []).map((n) => [n.id, n.reason]);
  return [
    `## Robustness\n\n${robustnessLine(summary)}`,
    ...(rows.length ? [table(['Case', 'Original', 'Variants passed', 'Broken by'], rows)] : []),
    ...(notFuzzed.length ? [`**Not fuzzed**\n\n${table(['Case', 'Why'], notFuzzed)}`] : []),
  ].join('\n\n');
}
