import type { PlanContext, TestContext } from './types/context.js';
import type { RunPlan } from './types/run.js';

/**
 * The context of a plan that carries none (`plan.context` absent, as in a plan written by hand): the
 * case's own `user`/`team`, the chat id the kernel gives each run, every other field empty. Defaults
 * such as Yao's `test-user` are the plan builder's policy, not the kernel's.
 */
const NO_CONTEXT: PlanContext = {
  environment: { user_id: '', team_id: '', locale: '', client_type: '', client_ip: '', referer: '', accept: '' },
  forAgent:
    (assistantId) =>
    (testCase, chatId): TestContext => ({
      user_id: testCase.user ?? '',
      team_id: testCase.team ?? '',
      locale: '',
      chat_id: chatId,
      assistant_id: assistantId,
      client: { type: '', ip: '', user_agent: '' },
      referer: '',
      accept: '',
      metadata: {},
      authorized: { user_id: testCase.user ?? '', team_id: testCase.team ?? '' },
    }),
};

export function planContextOf(plan: RunPlan): PlanContext {
  return plan.context ?? NO_CONTEXT;
}
