import { defineConfig } from '@agentest/test';

// The offline demo: the keyword assistant answers through its `mock.keyword` connector, and one run
// writes every report format beside the input (and the JSONL event stream, unless -o names the files).
// `agentest test` without -i runs the three suites below.
export default defineConfig({
  reporters: ['console', 'json', 'markdown', 'html', 'junit', 'summary'],
  test: {
    suites: ['assistants/keyword/tests/inputs.jsonl', 'assistants/orders/tests/inputs.jsonl', 'scripts.expense.setup'],
    runs: 3,
    parallel: 4,
  },
});
