import { setJudgeRunner, type JudgeRunner, type SatisfyRequest, type SatisfyVerdict } from '@agentest/expect';
import { judge, readJudgeSettings } from '@agentest/judge';
import type { ExecuteContext, JudgeRecord } from '@agentest/kernel';
import { scopedRunner } from './scoped-runner.js';

/**
 * Answers one test's `toSatisfy` calls with the run's judges: the reply is the output, the
 * criteria are the criteria, `input` is null (the test holds the conversation, not one input),
 * and every judgement is pushed to `records` for the run's details and judge account.
 */
export function kitJudge(ctx: ExecuteContext, records: JudgeRecord[], chatId: string): JudgeRunner {
  return async (request: SatisfyRequest): Promise<SatisfyVerdict> => {
    const { judge: use, samples, output, criteria, ...rest } = request;
    const options = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
    const settings = readJudgeSettings({ use, samples, options });
    if ('problem' in settings) return { error: `toSatisfy: ${settings.problem}` };
    const outcome = await judge({
      output,
      input: null,
      criteria,
      settings,
      resolveAgent: ctx.resolveAgent,
      signal: ctx.signal,
      chatId: `${chatId}-${records.length + 1}`,
    });
    records.push(outcome.record);
    return 'error' in outcome ? { error: outcome.error } : { passed: outcome.passed, reason: outcome.reason };
  };
}

/**
 * Runs a live test function (`runSuite`) with `runner` answering its `toSatisfy` calls. Such
 * functions share this thread's `expect`, so the runner is found through the async context of
 * the test that awaits it, and parallel tests never answer each other's.
 */
export const withKitJudge = scopedRunner<SatisfyRequest, SatisfyVerdict>(setJudgeRunner, {
  error: 'toSatisfy ran outside an agentest test',
});
