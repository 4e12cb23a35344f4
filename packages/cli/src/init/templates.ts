/** The files `agentest init` writes, as text. Each says in a comment what to change first. */

/** The id the example adapter has in the config (`-n example.agent`). */
export const EXAMPLE_AGENT = 'example.agent';

/** Where the scaffolded config sends its HTML report, so CI can upload it and `show-report` finds it. */
export const REPORT_DIR = 'agentest-report';

/** The scaffold's reporters: the terminal, and an HTML report and JUnit XML in one folder CI can keep. */
const REPORTERS = `['console', ['html', { output: '${REPORT_DIR}/index.html' }], ['junit', { output: '${REPORT_DIR}/junit.xml' }]]`;

/** `agentest.config.ts` for a project with no Yao app: the example adapter runs `tests/inputs.jsonl`. */
export function adapterConfig(): string {
  return `import { defineConfig } from '@agentest/test';
import { exampleAgent } from './tests/agent.js';

// \`npx agentest test\` runs the suites below; flags override what is set here (\`npx agentest test --help\`).
export default defineConfig({
  agents: { '${EXAMPLE_AGENT}': exampleAgent },
  reporters: ${REPORTERS},
  test: {
    suites: [{ input: 'tests/inputs.jsonl', agent: '${EXAMPLE_AGENT}' }],
    timeout: '1m',
  },
});
`;
}

/** The example adapter: offline and instant, so the scaffold passes before any API key is set. */
export function exampleAdapter(): string {
  return `import { defineAdapter } from '@agentest/test';

// An offline stand-in for your agent. Replace call() with a call to your system (an HTTP request, an SDK,
// a function of your code) and return its reply; \`input\` holds every field of the case, and \`query\` is
// the text of its last user message. An evaluate(reply, input) step may grade the reply as well.
export const exampleAgent = defineAdapter({
  call: (input) => \`You said: \${input.query}\`,
});
`;
}

/** Three cases for the example adapter, one per common way of checking a reply. */
export function adapterCases(): string {
  return jsonLines([
    {
      id: 'T001',
      name: 'repeats the question',
      input: 'What is agentest?',
      assert: { type: 'contains', value: 'agentest' },
    },
    { id: 'T002', name: 'answers exactly', input: 'hello', expected: 'You said: hello' },
    {
      id: 'T003',
      name: 'keeps a conversation',
      input: [
        ...conversation('My name is Ada.', 'Nice to meet you, Ada.'),
        { role: 'user', content: 'What is my name?' },
      ],
      assert: [
        { type: 'regex', value: '(?i)name' },
        { type: 'not_contains', value: 'error' },
      ],
    },
  ]);
}

/** `agentest.config.ts` inside a Yao app: the assistant's suite, the agent found from its `package.yao`. */
export function yaoConfig(suite: string): string {
  return `import { defineConfig } from '@agentest/test';

// \`npx agentest test\` runs the suites below, each against the assistant whose package.yao is above it;
// flags override what is set here (\`npx agentest test --help\`). Add a suite per assistant.
export default defineConfig({
  reporters: ${REPORTERS},
  test: {
    suites: ['${suite}'],
    timeout: '2m',
  },
});
`;
}

/**
 * Three cases for any assistant: they check only that it answers, so they pass whatever it does;
 * the point is the shape to copy (`assert`, `expected`, a conversation as `input`).
 */
export function yaoCases(): string {
  return jsonLines([
    { id: 'T001', name: 'answers a greeting', input: 'Hello!', assert: { type: 'regex', value: '\\S' } },
    {
      id: 'T002',
      name: 'answers a question',
      input: 'What can you help me with?',
      assert: { type: 'regex', value: '\\S', message: 'the reply is empty' },
    },
    {
      id: 'T003',
      name: 'keeps a conversation',
      input: [
        ...conversation('Hello!', 'Hello, how can I help?'),
        { role: 'user', content: 'Please answer in one sentence.' },
      ],
      assert: { type: 'regex', value: '\\S' },
    },
  ]);
}

/** One case per line, as a JSONL suite is written. */
function jsonLines(cases: readonly object[]): string {
  return cases.map((line) => JSON.stringify(line)).join('\n') + '\n';
}

/** A user turn and the assistant's answer, the history a multi-turn case starts from. */
function conversation(user: string, assistant: string): { role: string; content: string }[] {
  return [
    { role: 'user', content: user },
    { role: 'assistant', content: assistant },
  ];
}

/** How the workflow installs: `npm ci` with a lockfile, `npm install` without one. */
export interface WorkflowOptions {
  /** The project's folder relative to the repository root, `.` when it is the root. */
  workingDirectory: string;
  lockfile: boolean;
}

/** `.github/workflows/agentest.yml`: the suites on every push and pull request, the reports kept as an artifact. */
export function workflow({ workingDirectory, lockfile }: WorkflowOptions): string {
  const inProject =
    workingDirectory === '.' ? '' : `    defaults:\n      run:\n        working-directory: ${workingDirectory}\n`;
  const reports = workingDirectory === '.' ? REPORT_DIR : `${workingDirectory}/${REPORT_DIR}`;
  return `# agentest: the test suites on every push and pull request (https://github.com/features/actions).
name: agentest
on:
  push:
    branches: [main, master]
  pull_request:

jobs:
  agentest:
    runs-on: ubuntu-latest
    timeout-minutes: 30
${inProject}    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
      - run: ${lockfile ? 'npm ci' : 'npm install'}
      # Live agents need their keys: add them as repository secrets and pass them here, e.g.
      # env:
      #   OPENAI_API_KEY: \${{ secrets.OPENAI_API_KEY }}
      - run: npx agentest test
      - uses: actions/upload-artifact@v4
        if: \${{ !cancelled() }}
        with:
          name: agentest-report
          path: ${reports}/
          retention-days: 30
`;
}
