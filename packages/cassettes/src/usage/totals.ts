import type { CallRole, HelperUsage, TokenUsage, UsageTotals } from '@agentest/kernel';

export function emptyTotals(): UsageTotals {
  return { calls: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, cost_usd: 0 };
}

/** Adds one call to a total. `cost` is undefined for a model without a price, which is then listed. */
export function addCall(
  totals: UsageTotals,
  usage: TokenUsage | undefined,
  cost: number | undefined,
  model: string,
  replayed: boolean,
  role: CallRole = 'agent',
): void {
  const prompt = usage?.prompt_tokens ?? 0;
  const completion = usage?.completion_tokens ?? 0;
  const tokens = usage?.total_tokens ?? prompt + completion;
  totals.calls++;
  if (replayed) totals.replayed = (totals.replayed ?? 0) + 1;
  totals.prompt_tokens += prompt;
  totals.completion_tokens += completion;
  totals.total_tokens += tokens;
  if (cost !== undefined) totals.cost_usd += cost;
  else if (!totals.unpriced?.includes(model)) totals.unpriced = [...(totals.unpriced ?? []), model];
  if (role !== 'agent') addHelper(totals, role, { calls: 1, total_tokens: tokens, cost_usd: cost ?? 0 });
}

/** Counts a judge's or a simulated user's share apart (it is in the totals already). */
function addHelper(totals: UsageTotals, role: Exclude<CallRole, 'agent'>, add: HelperUsage): void {
  const helpers = (totals.helpers ??= {});
  const into = (helpers[role] ??= { calls: 0, total_tokens: 0, cost_usd: 0 });
  into.calls += add.calls;
  into.total_tokens += add.total_tokens;
  into.cost_usd += add.cost_usd;
}

/** Adds a case's totals to the run's. */
export function addTotals(into: UsageTotals, from: UsageTotals): void {
  into.calls += from.calls;
  if (from.replayed) into.replayed = (into.replayed ?? 0) + from.replayed;
  into.prompt_tokens += from.prompt_tokens;
  into.completion_tokens += from.completion_tokens;
  into.total_tokens += from.total_tokens;
  into.cost_usd += from.cost_usd;
  for (const model of from.unpriced ?? [])
    if (!into.unpriced?.includes(model)) into.unpriced = [...(into.unpriced ?? []), model];
  for (const role of ['judge', 'simulator'] as const) {
    const helper = from.helpers?.[role];
    if (helper) addHelper(into, role, helper);
  }
}

/** Costs rounded to a millionth of a dollar, so sums of floats read cleanly in reports. */
export function rounded(totals: UsageTotals): UsageTotals {
  const round = (usd: number) => Math.round(usd * 1e6) / 1e6;
  const helpers = totals.helpers && {
    ...Object.fromEntries(
      Object.entries(totals.helpers).map(([role, helper]) => [role, { ...helper, cost_usd: round(helper.cost_usd) }]),
    ),
  };
  return { ...totals, cost_usd: round(totals.cost_usd), ...(helpers ? { helpers } : {}) };
}
