import { defineConfig } from '@agentest/test';

// agentest tests its own examples with itself: `npx agentest test` here runs the suites each example lists,
// in the example's folder and with the example's own config. All of them run offline (scripted mock
// connectors, the echo agent, a mock adapter). Some cases fail on purpose, to show what a failure looks like,
// so the run exits 1; each example's README says which.
export default defineConfig({
  projects: ['examples/app', 'examples/support', 'examples/reporters'],
});
