import type { Suite } from '@agentest/kernel';
import { DEFAULT_TIMEOUT_MS } from './jsonl-suite.js';

/** The id of the one case a direct message makes, as in Yao. */
export const MESSAGE_CASE_ID = 'T001';

/**
 * A suite of one case: the message, sent as a user message. The agent is found from the working
 * directory (the resolver checks the directory itself, then its parents).
 */
export function messageSuite(message: string, cwd: string): Suite {
  return {
    name: message,
    needsAgent: true,
    agentHint: { path: cwd },
    defaultTimeoutMs: DEFAULT_TIMEOUT_MS,
    meta: { mode: 'message' },
    cases: () => [
      {
        id: MESSAGE_CASE_ID,
        kind: 'agent',
        input: message,
        messages: [{ role: 'user', content: message }],
        source: { file: '<message>' },
      },
    ],
  };
}
