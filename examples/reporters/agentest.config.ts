import { defineConfig } from '@agentest/test';

// `agentest test -i tests/inputs.jsonl -n echo` from this directory writes the usual console output
// plus output/summary.slack.json, made by the reporter in ./slack-reporter.ts.
export default defineConfig({
  reporters: ['console', ['./slack-reporter.ts', { output: 'output/summary.slack.json', channel: '#agent-tests' }]],
});
