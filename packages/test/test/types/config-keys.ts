// A config as a team writes it: agentest's keys, the sections the built-in plugins declare (`script`, `kit`,
// `yao`) and one a plugin of the team's declares by module augmentation. config-types.test.ts compiles it,
// and a copy with one key misspelt, which must fail.
import { defineConfig, definePlugin } from '@agentest/test';

declare module '@agentest/test' {
  interface AgentestConfigExtensions {
    slack?: { channel: string };
  }
}

const slack = definePlugin({
  name: 'acme:slack',
  configKey: 'slack',
  configure(section) {
    void section;
  },
  apply() {},
});

export default defineConfig({
  plugins: [slack, 'agentest-plugin-acme', ['agentest-plugin-acme', { strict: true }]],
  reporters: ['console', ['json', { output: 'report.json' }]],
  script: { maxThreads: 2 },
  kit: { include: 'tests/**/*.test.ts' },
  yao: { hookTimeoutMs: 1000 },
  slack: { channel: '#agents' },
  test: { parallel: 2 },
});
