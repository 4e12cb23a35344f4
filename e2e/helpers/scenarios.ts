// Hostile-input scenarios: each writes a fixture, runs the real CLI on it and checks the one message it prints.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runCli, stackFrames } from './cli.js';
import { workspace, writeCases } from './workspace.js';

export interface Scenario {
  name: string;
  /** Writes the fixture into `dir` and returns the CLI arguments after `test`. */
  setup(dir: string): string[];
  code: string;
  /** Every pattern must appear in stderr. */
  says: RegExp[];
  todo?: string;
}

export const ok = (id = 'ok') => ({ id, input: 'hello' });
export const cases = (dir: string, lines: unknown[]) => (
  writeCases(dir, 'cases.jsonl', lines),
  ['-i', 'cases.jsonl', '-n', 'echo']
);

/** Runs each scenario through the CLI: exit 2, one precise message with its hint, no stack trace. */
export function describeScenarios(title: string, scenarios: Scenario[]): void {
  describe(title, { concurrency: 4 }, () => {
    for (const scenario of scenarios) {
      test(scenario.name, { ...(scenario.todo ? { todo: scenario.todo } : {}) }, async () => {
        const dir = workspace('input');
        const args = scenario.setup(dir);
        const run = await runCli(['test', ...args], { cwd: dir });
        assert.equal(run.code, 2, `exit code ${run.code}\nstdout: ${run.stdout.slice(-800)}\nstderr: ${run.stderr}`);
        assert.match(run.stderr, new RegExp(`error\\[${scenario.code}\\]`), run.stderr);
        for (const pattern of scenario.says) assert.match(run.stderr, pattern);
        assert.match(run.stderr, /hint: \S/, 'the catalogue fix is printed');
        assert.deepEqual(stackFrames(run.stderr + run.stdout), [], 'no stack trace');
        assert.ok(run.stderr.length < 4_000, `the message is short (${run.stderr.length} chars)`);
      });
    }
  });
}
