import type { DeepReadonly, UsageTotals } from '@agentest/kernel';
import { formatUsd } from '@agentest/common';

/**
 * Tokens and cost as every report says them: `12 model calls (12 replayed) · 1,639 tokens (1,552 in,
 * 87 out) · $0.0003`, with the models that had no price named.
 */
export function usageText(usage: DeepReadonly<UsageTotals> | undefined): string | undefined {
  if (!usage || !usage.calls) return undefined;
  const calls = `${usage.calls} model call${usage.calls === 1 ? '' : 's'}${usage.replayed ? ` (${usage.replayed} replayed)` : ''}`;
  const tokens = `${usage.total_tokens.toLocaleString('en')} tokens (${usage.prompt_tokens.toLocaleString('en')} in, ${usage.completion_tokens.toLocaleString('en')} out)`;
  const unpriced = usage.unpriced?.filter(Boolean) ?? [];
  const cost = `${formatUsd(usage.cost_usd)}${unpriced.length ? ` (no price for ${unpriced.join(', ')})` : ''}`;
  return `${calls} · ${tokens} · ${cost}${helpersText(usage.helpers)}`;
}

/** ` · of which judges 30 calls, 7,046 tokens, $0.0012; simulated users 6 calls, …`: the cost of testing, apart. */
function helpersText(helpers: DeepReadonly<UsageTotals>['helpers']): string {
  const parts = (
    [
      ['judges', helpers?.judge],
      ['simulated users', helpers?.simulator],
    ] as const
  )
    .filter(([, helper]) => helper?.calls)
    .map(
      ([who, helper]) =>
        `${who} ${helper!.calls} call${helper!.calls === 1 ? '' : 's'}, ${helper!.total_tokens.toLocaleString('en')} tokens, ${formatUsd(helper!.cost_usd)}`,
    );
  return parts.length ? ` · of which ${parts.join('; ')}` : '';
}

/** `3 cases have no assertion: they pass whatever the agent answers`, when some ran, else undefined. */
export function unassertedNote(summary: { unasserted?: number }): string | undefined {
  const count = summary.unasserted ?? 0;
  if (!count) return undefined;
  return `${count} case${count === 1 ? ' has' : 's have'} no assertion: ${count === 1 ? 'it passes' : 'they pass'} whatever the agent answers`;
}

/** `stopped early: budget (…); 4 cases not run` for a halted run's summary, else undefined. */
export function haltNote(summary: { halted?: string; not_run?: number }): string | undefined {
  if (!summary.halted) return undefined;
  const count = summary.not_run ?? 0;
  return `stopped early: ${summary.halted}; ${count} case${count === 1 ? '' : 's'} not run`;
}
