import type { Execution, JudgeRecord } from './types/result.js';

/**
 * Adds one judgement's calls, time and tokens to the run's judge account (`execution.judge`), which
 * reports show apart from the agent's own `usage` and `duration_ms`.
 */
export function addJudgeUsage(execution: Pick<Execution, 'judge'>, judge: JudgeRecord): void {
  const account = (execution.judge ??= { calls: 0, duration_ms: 0 });
  account.calls += judge.calls;
  account.duration_ms = Math.round((account.duration_ms + judge.duration_ms) * 100) / 100;
  if (!judge.usage) return;
  const usage = (account.usage ??= {});
  for (const key of ['prompt_tokens', 'completion_tokens', 'total_tokens'] as const) {
    const add = judge.usage[key];
    if (typeof add === 'number') usage[key] = (usage[key] ?? 0) + add;
  }
}
