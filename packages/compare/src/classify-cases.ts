import { outcomes, type CaseRecord, type ComparisonInput } from './comparison-input.js';
import type { CaseChange, CaseTest, Category, SideEvidence } from './comparison.js';
import { fisherExact, holm, wilsonInterval } from './stats/index.js';

/**
 * Every case of either report, classified by what changed: a case passes on a side when all its
 * runs passed (the case status agentest reports). With at least two runs a side, Fisher's exact
 * test on its runs, Holm-corrected across the cases tested, flags the ones that moved beyond chance.
 */
export function classifyCases(base: ComparisonInput, head: ComparisonInput, alpha: number): CaseChange[] {
  const changes: CaseChange[] = [];
  for (const [id, before] of base.cases) changes.push(change(id, before, head.cases.get(id)));
  for (const [id, after] of head.cases) if (!base.cases.has(id)) changes.push(change(id, undefined, after));
  flagWithHolm(changes, alpha);
  return changes;
}

function change(id: string, before: CaseRecord | undefined, after: CaseRecord | undefined): CaseChange {
  const base = before && evidence(before);
  const head = after && evidence(after);
  const name = after?.name ?? before?.name;
  const result: CaseChange = {
    id,
    ...(name ? { name } : {}),
    category: category(base, head),
    ...(base ? { base } : {}),
    ...(head ? { head } : {}),
  };
  if (base && head && base.runs >= 2 && head.runs >= 2) {
    result.test = {
      ...fisherExact({
        basePassed: base.passed,
        baseFailed: base.runs - base.passed,
        headPassed: head.passed,
        headFailed: head.runs - head.passed,
      }),
      adjusted: 1,
    };
  }
  return result;
}

function evidence(record: CaseRecord): SideEvidence {
  const scores = outcomes(record);
  const passed = scores.filter((s) => s === 1).length;
  return {
    status: record.status,
    runs: scores.length,
    passed,
    passRate: scores.length ? passed / scores.length : 0,
    ...(scores.length > 1 ? { interval: wilsonInterval(passed, scores.length) } : {}),
    messages: record.messages,
  };
}

function category(base: SideEvidence | undefined, head: SideEvidence | undefined): Category {
  if (!base) return 'new';
  if (!head) return 'removed';
  if (base.runs === 0 || head.runs === 0) return 'skipped';
  const before = base.passed === base.runs;
  const after = head.passed === head.runs;
  if (before && after) return 'still_passing';
  if (before) return 'regressed';
  if (after) return 'fixed';
  return 'still_failing';
}

function flagWithHolm(changes: CaseChange[], alpha: number): void {
  const tested = changes.filter((c): c is CaseChange & { test: CaseTest } => c.test !== undefined);
  const adjusted = holm(tested.map((c) => c.test.twoSided));
  tested.forEach((c, i) => {
    c.test.adjusted = adjusted[i]!;
    if (adjusted[i]! < alpha) c.test.flag = c.head!.passRate < c.base!.passRate ? 'worse' : 'better';
  });
}
