import type { CaseResult, Execution, JudgeRecord } from './types/result.js';

/**
 * A judged case's two sources of flakiness, apart: the agent's (how many runs passed) and the
 * judge's (how many samples agreed with their assertion's majority, over every run).
 */
export interface CaseVariance {
  agent: { runs: number; passed: number; pass_rate: number };
  judge: {
    /** Judged assertions over all runs (JSONL `agent` assertions, `t.assert.Agent`, `toSatisfy`). */
    judgements: number;
    samples: number;
    /** Samples that voted with their judgement's majority; a tie or an error has no majority. */
    agreeing: number;
    agreement: number;
    /** Judgements with a verdict whose samples did not all agree. */
    split: number;
    /** Judgements without a verdict: a sample erred, or the samples tied. */
    no_verdict: number;
  };
}

/** The variance block of a case whose runs were judged, else undefined. */
export function caseVariance(runs: readonly Execution[]): CaseResult['variance'] {
  const records = runs.flatMap(judgeRecords);
  if (!records.length) return undefined;
  let samples = 0;
  let agreeing = 0;
  let split = 0;
  let noVerdict = 0;
  for (const { votes } of records) {
    const asked = votes.passed + votes.failed + votes.errors;
    const majority = votes.errors || votes.passed === votes.failed ? 0 : Math.max(votes.passed, votes.failed);
    samples += asked;
    agreeing += majority;
    if (!majority) noVerdict++;
    else if (majority !== asked) split++;
  }
  const passed = runs.filter((r) => r.status === 'passed').length;
  return {
    agent: { runs: runs.length, passed, pass_rate: runs.length ? passed / runs.length : 0 },
    judge: {
      judgements: records.length,
      samples,
      agreeing,
      agreement: samples ? agreeing / samples : 0,
      split,
      no_verdict: noVerdict,
    },
  };
}

/** The judgements of one run: on its assertions, and those a script or `test()` function made itself. */
function judgeRecords(run: Execution): JudgeRecord[] {
  const own = run.assertions.flatMap((a) => (a.judge ? [a.judge] : []));
  const made = run.details?.judges;
  return Array.isArray(made) ? [...own, ...(made as JudgeRecord[])] : own;
}
