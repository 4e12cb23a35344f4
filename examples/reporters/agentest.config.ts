import { defineConfig } from '@agentest/test';

// `agentest test` here runs the suite below (`-i tests/inputs.jsonl -n echo`): the usual console output
// plus output/summary.slack.json, made by the reporter in ./slack-reporter.ts.
export default defineConfig({
  test: { suites: [{ input: 'tests/inputs.jsonl', agent: 'echo' }] },
  reporters: ['console', ['./slack-reporter.ts', { output: 'output/summary.slack.json', channel: '#agent-tests' }]],
});
