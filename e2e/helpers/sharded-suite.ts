import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeCases } from './workspace.js';

/**
 * The CI variables of the machine running the tests must not choose a shard or a run id for the runs
 * of a test: each test sets its own.
 */
export const NO_CI: NodeJS.ProcessEnv = Object.fromEntries(
  [
    'CI_NODE_INDEX',
    'CI_NODE_TOTAL',
    'BUILDKITE_PARALLEL_JOB',
    'BUILDKITE_PARALLEL_JOB_COUNT',
    'CIRCLE_NODE_INDEX',
    'CIRCLE_NODE_TOTAL',
    'JOB_COMPLETION_INDEX',
    'AGENTEST_SHARD_TOTAL',
    'GITHUB_RUN_ID',
    'GITHUB_RUN_ATTEMPT',
    'CI_PIPELINE_ID',
    'BUILDKITE_BUILD_ID',
    'CIRCLE_WORKFLOW_ID',
  ].map((name) => [name, '']),
);

/**
 * A deterministic agent (`-n det`) whose answers depend only on the case and the run: case n fails
 * every run when n is a multiple of 6, and only its second run when n leaves 1 divided by 4, so a
 * suite run with `--runs 3` has stable passes, stable failures and unstable cases. An input containing
 * `slow` is answered after `delayMs`.
 */
export function writeDeterministicProject(dir: string, ids: readonly string[], options: { slow?: boolean } = {}): void {
  writeFileSync(
    join(dir, 'agentest.config.mjs'),
    `const agent = {
  id: 'det',
  async run(messages, ctx) {
    const text = String(messages.at(-1)?.content ?? '');
    const [, id, run = '1'] = /^test-(.*?)(?:-run(\\d+))?$/.exec(ctx.chat_id) ?? [];
    const n = Number(String(id).replace(/\\D/g, ''));
    if (text.includes('slow')) await new Promise((done) => setTimeout(done, 120));
    const fails = n % 6 === 0 || (n % 4 === 1 && run === '2');
    const reply = fails ? 'nope' : text;
    return { content: reply, text: reply };
  },
};
export default {
  plugins: [{ name: 'deterministic-agent', apply: (kernel) => kernel.hooks.resolve.tap('deterministic-agent', (ref) => (ref.id === 'det' ? agent : undefined)) }],
};
`,
  );
  writeCases(
    dir,
    'cases.jsonl',
    ids.map((id) => ({
      id,
      input: `${id}${options.slow ? ' slow' : ''} says hi`,
      assert: { type: 'contains', value: id },
    })),
  );
}

/** What a case's runs come to with the deterministic agent: its status and each run's. */
export function expectedOutcome(id: string, runs: number): { status: string; runs: string[] } {
  const n = Number(id.replace(/\D/g, ''));
  const statuses = Array.from({ length: runs }, (_, i) =>
    n % 6 === 0 || (n % 4 === 1 && runs > 1 && i === 1) ? 'failed' : 'passed',
  );
  return { status: statuses.includes('failed') ? 'failed' : 'passed', runs: statuses };
}
