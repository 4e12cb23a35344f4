export { default, PLUGIN_NAME } from './plugin.js';
export { executeDynamicCase } from './execute-dynamic-case.js';
export {
  converse,
  ConversationStepper,
  type ConversationOptions,
  type ConversationRecord,
  type TurnJudge,
} from './conversation.js';
export { CheckpointTracker } from './checkpoint-tracker.js';
export { simulatorRequest, briefFromMetadata, type UserBrief, type SimulatorProgress } from './simulator-request.js';
export { parseSimulatorReply, type SimulatorMove } from './simulator-reply.js';
