import { defineConfig } from '@agentest/test';
import { createMockAdapter } from './adapters/mock-adapter.js';

export default defineConfig({
  agents: { support: createMockAdapter() },
  // The agent cases.json and ctx.run use when `-n` is not given.
  kit: { agent: 'support' },
  // `agentest test` without -i runs this folder: cases.json and the test files.
  test: { suites: ['.'], parallel: 4, timeout: '10s' },
  thresholds: { keyword_hit_rate: 0.7, intent_match_rate: 0.8 },
});
