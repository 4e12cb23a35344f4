import type { AgentReply, RunScope, TokenUsage, UsageTotals } from '@agentest/kernel';
import type { ModelExchange } from '../boundary.js';
import type { PriceTable } from './prices.js';
import { formatUsd } from '@agentest/common';
import { addCall, addTotals, emptyTotals, rounded } from './totals.js';

export interface Budget {
  /** `--max-cost`: USD spent by live calls. */
  maxCost?: number;
  /** `--max-tokens`: tokens of live calls. */
  maxTokens?: number;
}

/**
 * Counts the tokens and cost of every model call of a run, per case and in total. Replayed calls are
 * counted (at what they cost when recorded) and marked; only live calls spend the budget, and once it
 * is reached `onBudget` is told why, once.
 */
export class UsageMeter {
  private readonly cases = new Map<string, UsageTotals>();
  private readonly total = emptyTotals();
  private spentUsd = 0;
  private spentTokens = 0;
  private reached = false;

  constructor(
    private readonly prices: PriceTable,
    private readonly budget: Budget,
    private readonly onBudget: (reason: string) => void,
  ) {}

  count(scope: RunScope, exchange: ModelExchange, reply: AgentReply, replayed: boolean): void {
    const model = typeof reply.trace?.model === 'string' && reply.trace.model ? reply.trace.model : exchange.model;
    const price =
      this.prices.priceOf(exchange.connector, exchange.type, model) ??
      this.prices.priceOf(exchange.connector, exchange.type, exchange.model);
    const cost = price ? costOf(reply.usage, price) : undefined;
    let totals = this.cases.get(scope.caseId);
    if (!totals) this.cases.set(scope.caseId, (totals = emptyTotals()));
    addCall(totals, reply.usage, cost, model, replayed, scope.role);
    if (!replayed) this.spend(cost ?? 0, reply.usage?.total_tokens ?? 0);
  }

  /**
   * A finished case's totals, taken off the meter into the run's. A case that made no call through a
   * connector falls back to the usage its runs' replies reported (tokens, no price).
   */
  takeCase(caseId: string, runs: readonly { usage?: TokenUsage }[]): UsageTotals | undefined {
    let totals = this.cases.get(caseId);
    this.cases.delete(caseId);
    if (!totals) {
      const reported = runs.filter((run) => run.usage);
      if (!reported.length) return undefined;
      totals = emptyTotals();
      for (const run of reported) addCall(totals, run.usage, 0, '', false);
    }
    addTotals(this.total, totals);
    return rounded(totals);
  }

  runTotals(): UsageTotals {
    return rounded(this.total);
  }

  private spend(usd: number, tokens: number): void {
    this.spentUsd += usd;
    this.spentTokens += tokens;
    if (this.reached) return;
    const { maxCost, maxTokens } = this.budget;
    let reason: string | undefined;
    if (maxCost !== undefined && this.spentUsd >= maxCost)
      reason = `budget (--max-cost ${maxCost} reached: ${formatUsd(this.spentUsd)} spent)`;
    else if (maxTokens !== undefined && this.spentTokens >= maxTokens)
      reason = `budget (--max-tokens ${maxTokens} reached: ${this.spentTokens} tokens used)`;
    if (reason) {
      this.reached = true;
      this.onBudget(reason);
    }
  }
}

function costOf(usage: TokenUsage | undefined, price: { input: number; output: number }): number {
  return ((usage?.prompt_tokens ?? 0) * price.input + (usage?.completion_tokens ?? 0) * price.output) / 1e6;
}
