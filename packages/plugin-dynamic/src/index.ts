export { default, PLUGIN_NAME } from './plugin.js';
export { executeDynamicCase, type DynamicDetails } from './execute-dynamic-case.js';
export {
  converse,
  type ConversationOptions,
  type ConversationRecord,
  type EndReason,
  type TurnRecord,
} from './conversation.js';
export { CheckpointTracker, type CheckpointResult } from './checkpoint-tracker.js';
export { simulatorRequest, briefFromMetadata, type UserBrief, type SimulatorProgress } from './simulator-request.js';
export { parseSimulatorReply, type SimulatorMove } from './simulator-reply.js';
