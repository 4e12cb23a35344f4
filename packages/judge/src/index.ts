export { default, PLUGIN_NAME } from './plugin.js';
export { AGENT_ASSERTION_TYPE, checkAgentAssertion, validateAgentAssertion } from './agent-assertion.js';
export { judge, judgeMessages, type JudgeRequest, type JudgeOutcome } from './judge.js';
export {
  readJudgeSettings,
  DEFAULT_SEED,
  DEFAULT_TEMPERATURE,
  DEFAULT_JUDGE_TIMEOUT_MS,
  MAX_SAMPLES,
  type JudgeSettings,
  type JudgeSpec,
} from './judge-settings.js';
export { judgePayload, type JudgeSubject } from './judge-payload.js';
export { readVerdict, type ReadVerdict } from './judge-verdict.js';
export { JUDGE_SYSTEM_PROMPT } from './judge-prompt.js';
export {
  callHelper,
  resolveHelper,
  HelperError,
  type HelperCall,
  type HelperReply,
  type HelperFailure,
} from './call-helper.js';
export { parseHelperRef, resolverId, AGENT_PREFIX, CONNECTOR_PREFIX, type HelperRef } from './helper-ref.js';
