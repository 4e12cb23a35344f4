export { startFakeLlm } from './server.js';
export { loadScriptFile, parseScript } from './script-file.js';
export type {
  FakeApi,
  FakeLlm,
  FakeLlmOptions,
  FakeLlmScript,
  FakeReply,
  FakeRule,
  FakeToolCall,
  Fault,
  FaultSchedule,
  FaultSpec,
  MatchInput,
  RecordedRequest,
} from './types.js';
