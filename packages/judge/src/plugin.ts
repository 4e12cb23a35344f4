import { AgentestError, type AgentestPlugin } from '@agentest/kernel';
import {
  AGENT_ASSERTION_TYPE,
  agentAssertionJudge,
  checkAgentAssertion,
  validateAgentAssertion,
} from './agent-assertion.js';

export const PLUGIN_NAME = 'agentest:judge';

/** The `agent` assertion type: an agent or connector judges the output (see `checkAgentAssertion`). */
export default function judgePlugin(options?: Record<string, never>): AgentestPlugin {
  return {
    name: PLUGIN_NAME,
    apply({ hooks }) {
      if (options !== undefined && (typeof options !== 'object' || Object.keys(options ?? {}).length)) {
        throw new AgentestError('PLUGIN_INVALID', `${PLUGIN_NAME}: takes no options, got ${JSON.stringify(options)}`, {
          where: PLUGIN_NAME,
        });
      }
      hooks.assert
        .for(AGENT_ASSERTION_TYPE)
        .tapPromise(
          { name: PLUGIN_NAME, validate: validateAgentAssertion, helpers: agentAssertionJudge },
          checkAgentAssertion,
        );
    },
  };
}
