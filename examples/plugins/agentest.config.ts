import { defineConfig } from '@agentest/test';
import maxWords from './assertion.ts';
import conversationExecutor from './executor.ts';
import csvLoader from './loader.ts';
import reverseResolver from './resolver.ts';

// `agentest test` here runs both suites with the four plugins below and writes output/<suite>.txt with
// the reporter in ./reporter.ts. Everything runs offline: the agent is the `reverse` resolver's.
export default defineConfig({
  plugins: [csvLoader(), reverseResolver(), maxWords, conversationExecutor()],
  reporters: ['console', ['./reporter.ts', { dir: 'output' }]],
  test: {
    suites: [
      { input: 'tests/greetings.csv', agent: 'reverse' },
      { input: 'tests/conversations.jsonl', agent: 'reverse' },
    ],
  },
});
