import { posix } from 'node:path';
import { outcomes, type ComparisonInput } from './comparison-input.js';
import { CATEGORIES, type Category, type Comparison, type SideInfo } from './comparison.js';
import { classifyCases } from './classify-cases.js';
import { detection } from './detection.js';
import { metricChanges } from './metric-changes.js';
import { notComparable } from './report-errors.js';
import { suiteVerdict } from './suite-verdict.js';
import type { PairedRuns } from './stats/index.js';

export interface CompareOptions {
  /** Significance level of every test, and 1 − the confidence of every interval (default 0.05). */
  alpha?: number;
  /** Pass-rate drop (0–1) tolerated by the several-runs verdict (default 0). */
  margin?: number;
  /** Seed of the bootstrap (default 1). */
  seed?: number;
  /** Bootstrap resamples (default 10,000). */
  resamples?: number;
  /** A drop (0–1) to size the suite for: adds the cases or runs needed to detect it. */
  detect?: number;
  /** Power of that detection (default 0.8). */
  power?: number;
  /** Compare reports whose suites are named differently (a suite file that moved). */
  allowSuiteChange?: boolean;
}

/**
 * Base against head, paired by case id: what changed per case, the suite verdict, the latency,
 * token and cost medians, and, with `detect`, what it takes to see a given drop. Throws
 * `REPORTS_NOT_COMPARABLE` when the reports are of different suites or share no case.
 */
export function compareReports(base: ComparisonInput, head: ComparisonInput, options: CompareOptions = {}): Comparison {
  const alpha = options.alpha ?? 0.05;
  const margin = options.margin ?? 0;
  const seed = options.seed ?? 1;
  const notes = checkComparable(base, head, options.allowSuiteChange === true);
  const cases = classifyCases(base, head, alpha);
  const pairs: PairedRuns[] = [];
  for (const [id, before] of base.cases) {
    const after = head.cases.get(id);
    const b = outcomes(before);
    const h = after ? outcomes(after) : [];
    if (b.length && h.length) pairs.push({ base: b, head: h });
  }
  if (!pairs.length)
    throw notComparable(
      `no case ran on both sides: the ${cases.filter((c) => c.category === 'skipped').length} cases the reports share were skipped on one side`,
    );
  const resamples = options.resamples;
  const verdict = suiteVerdict(cases, pairs, { alpha, margin, seed, ...(resamples ? { resamples } : {}) });
  const order = (c: Category) => CATEGORIES.indexOf(c);
  cases.sort((a, b) => order(a.category) - order(b.category));
  return {
    type: 'comparison',
    version: 1,
    base: sideInfo(base),
    head: sideInfo(head),
    counts: Object.fromEntries(CATEGORIES.map((c) => [c, cases.filter((x) => x.category === c).length])) as Record<
      Category,
      number
    >,
    cases,
    correction: 'holm',
    verdict,
    metrics: metricChanges(base, head, { seed, level: 1 - alpha, ...(resamples ? { resamples } : {}) }),
    ...(options.detect !== undefined
      ? { detection: detection(pairs, verdict, options.detect, { alpha, power: options.power ?? 0.8 }) }
      : {}),
    notes: [...notes, ...incomplete(base, 'base'), ...incomplete(head, 'head')],
    exitCode: verdict.verdict === 'regressed' ? 1 : 0,
  };
}

function checkComparable(base: ComparisonInput, head: ComparisonInput, allowSuiteChange: boolean): string[] {
  if (base.kind !== head.kind)
    throw notComparable(
      `base is ${article(base.kind)} suite and head ${article(head.kind)} suite; compare two runs of the same suite`,
    );
  const notes: string[] = [];
  if (!sameSuite(base.suite, head.suite)) {
    const names = `base ran "${base.suite}" and head ran "${head.suite}"`;
    if (!allowSuiteChange)
      throw notComparable(`different suites: ${names}; if the suite moved or was renamed, pass --allow-suite-change`);
    notes.push(`The suites are named differently (${names}); cases were matched by id.`);
  }
  if (![...base.cases.keys()].some((id) => head.cases.has(id))) {
    throw notComparable(
      `no case id in common: base has ${base.cases.size} cases (${sample(base)}), head has ${head.cases.size} (${sample(head)})`,
    );
  }
  return notes;
}

/** The same suite given as `tests/a.jsonl`, `./tests/a.jsonl` or an absolute path ending in it. */
function sameSuite(a: string, b: string): boolean {
  const clean = (s: string) => posix.normalize(s.replace(/\\/g, '/')).replace(/\/$/, '');
  const [x, y] = [clean(a), clean(b)];
  return x === y || x.endsWith(`/${y}`) || y.endsWith(`/${x}`);
}

function article(kind: string): string {
  return /^[aeiou]/i.test(kind) ? `an ${kind}` : `a ${kind}`;
}

function sample(input: ComparisonInput): string {
  const ids = [...input.cases.keys()];
  return ids.length ? `${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', …' : ''}` : 'none';
}

function incomplete(input: ComparisonInput, side: string): string[] {
  return input.complete
    ? []
    : [
        `The ${side} run did not finish (interrupted, stopped by a budget, or its file ends before the summary): only the cases it ran were compared.`,
      ];
}

function sideInfo(input: ComparisonInput): SideInfo {
  const { cases, ...rest } = input;
  return { ...rest, cases: cases.size };
}
