import type { CaseVariance, JudgeRecord } from '@agentest/kernel';

/** How a judged case reads in text reports: how each judgement was reached, and the case's variance. */

/**
 * How a judgement was reached, in one line for reports:
 * `judge agents:x: 2/3 · gpt-4o · temperature 0 · seed 42 · sha256:…`.
 */
export function judgeLine(
  judge: Pick<JudgeRecord, 'use' | 'agreement' | 'model' | 'temperature' | 'seed' | 'prompt_hash'>,
): string {
  const parts = [
    judge.agreement,
    ...(judge.model ? [judge.model] : []),
    ...(judge.temperature !== undefined ? [`temperature ${judge.temperature}`] : []),
    ...(judge.seed !== undefined ? [`seed ${judge.seed}`] : []),
    judge.prompt_hash,
  ];
  return `judge ${judge.use}: ${parts.join(' · ')}`;
}

/** The variance as one line for text reports: `agent: passed 2/3 runs · judge: 8/9 samples agreed …`. */
export function varianceLine(variance: CaseVariance): string {
  const { agent, judge } = variance;
  const notes = [
    ...(judge.split ? [`${judge.split} of ${judge.judgements} judgements split`] : []),
    ...(judge.no_verdict ? [`${judge.no_verdict} of ${judge.judgements} without a verdict`] : []),
  ];
  const splits = notes.length ? ` (${notes.join(', ')})` : '';
  return `agent: passed ${agent.passed}/${agent.runs} runs · judge: ${judge.agreeing}/${judge.samples} samples agreed with their majority${splits}`;
}
