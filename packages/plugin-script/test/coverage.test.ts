import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { AgentestPlugin, Suite, TestCase } from '@agentest/kernel';
import { acquireScriptPool, coveragePlugin, type CoverageOutcome } from '../src/index.js';
import { plan, runKernel } from './helpers.js';

const APP = fileURLToPath(new URL('./fixtures/coverage-app', import.meta.url));
const CALC = 'assistants/calc/src/calc.ts';

/** The `DA:<line>,<hits>` records of one source file in an lcov file. */
function lcovLines(lcov: string, file: string): Map<number, number> {
  const record = lcov.split('end_of_record').find((r) => r.includes(`SF:${file}`));
  assert.ok(record, `lcov has a record for ${file}:\n${lcov}`);
  const lines = new Map<number, number>();
  for (const [, line, hits] of record.matchAll(/^DA:(\d+),(\d+)/gm)) lines.set(Number(line), Number(hits));
  return lines;
}

describe('coverage of script tests', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agentest-coverage-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('maps the counts to the .ts lines of the functions called and not called', async () => {
    let outcome: CoverageOutcome | undefined;
    const plugin = coveragePlugin({ cwd: APP, dir, onCoverage: (o) => (outcome = o) });
    const run = await runKernel(plan('scripts.calc.calc', APP), { root: APP }, [plugin]);
    assert.equal(run.summary.passed, 2);
    const lcov = await readFile(join(dir, 'lcov.info'), 'utf8');
    const lines = lcovLines(lcov, CALC);
    assert.ok(lines.get(2)! > 0, 'add() ran: its body line is covered');
    assert.equal(lines.get(6), 0, 'neverCalled() never ran: its body is not covered');
    assert.equal(lines.get(14), 0, 'the branch of sign() no test took is not covered');
    assert.ok(lines.get(16)! > 0, 'the branch of sign() a test took is covered');
    assert.match(lcov, /^FNDA:0,neverCalled$/m);
    assert.match(lcov, /^FNDA:[1-9]\d*,add$/m);
    assert.doesNotMatch(lcov, /calc_test\.ts/, 'the tests themselves are not measured');
    assert.match(outcome!.text, /calc\.ts\s*\|\s*58\.82 \|/, 'the text table is handed over, not printed');
    assert.deepEqual(run.summary.coverage?.reports, [join(dir, 'lcov.info')], 'a folder outside cwd is named in full');
  });

  it('counts what the Before/After hooks of an agent suite run; the reports of runs into one folder add up', async () => {
    let outcome: CoverageOutcome | undefined;
    const plugin = coveragePlugin({ cwd: APP, dir, onCoverage: (o) => (outcome = o) });
    await runKernel(plan('x.jsonl', APP), { hooks: { before: 'env_test.Before' } }, [plugin, echoSuite()]);
    const lcov = await readFile(join(dir, 'lcov.info'), 'utf8');
    assert.match(lcov, /^FNDA:1,prepare$/m, 'prepare() ran once, from the hook');
    assert.ok(lcovLines(lcov, 'assistants/calc/src/prepare.ts').get(3)! > 0);
    assert.match(lcov, /^FNDA:1,add$/m, 'the first run (script tests) into this folder is still in its lcov');
    assert.deepEqual(
      outcome!.summary.files.map((file) => file.file),
      ['assistants/calc/src/prepare.ts'],
      "this run's own summary: the hook file's bundle used only prepare.ts",
    );
  });

  it('a long run does not run out of memory: a thread that fills up is replaced, and its counts are kept', async () => {
    // Under coverage V8 keeps every task's context alive; 32 MB holds far fewer than 300 of them.
    const runs = 150;
    const plugin = coveragePlugin({ cwd: APP, dir: join(dir, 'long') });
    const run = await runKernel(
      plan('scripts.calc.calc', APP, { runs }),
      { root: APP, maxThreads: 1, memoryLimitMb: 32 },
      [plugin],
    );
    assert.deepEqual([run.summary.passed, run.summary.errors], [2, 0]);
    const lcov = await readFile(join(dir, 'long', 'lcov.info'), 'utf8');
    assert.match(
      lcov,
      new RegExp(`^FNDA:${runs},add$`, 'm'),
      'every call of add() counted, across the replaced threads',
    );
  });

  it('on a pool that outlives the runs, a run without coverage counts nothing toward the next that collects', async () => {
    const lease = acquireScriptPool({ maxThreads: 2, memoryLimitMb: 64 });
    try {
      const covered = (name: string) => coveragePlugin({ cwd: APP, dir: join(dir, name), include: [CALC] });
      await runKernel(plan('scripts.calc.calc', APP), { root: APP }, [covered('first')]);
      await runKernel(plan('scripts.calc.calc', APP, { runs: 5 }), { root: APP });
      await runKernel(plan('scripts.calc.calc', APP), { root: APP }, [covered('third')]);
      const lcov = await readFile(join(dir, 'third', 'lcov.info'), 'utf8');
      assert.match(lcov, /^FNDA:1,add$/m, "only the third run's one call of add()");
      assert.match(lcov, /^FNDA:0,neverCalled$/m);
    } finally {
      await lease.release();
    }
  });

  it('holds the run to coverage thresholds: below one, the verdict is DO NOT SHIP and says which', async () => {
    const run = (thresholds: Record<string, number>) =>
      runKernel(plan('scripts.calc.calc', APP, { thresholds }), { root: APP }, [
        coveragePlugin({ cwd: APP, dir: join(dir, 'thresholds'), include: [CALC] }),
      ]);
    const failing = await run({ coverage_lines: 0.9, coverage_functions: 0.5 });
    assert.equal(failing.summary.passed, 2, 'every test passed');
    assert.equal(failing.summary.verdict?.can_ship, false);
    assert.deepEqual(failing.summary.verdict?.issues, ['Coverage Lines 58.8% < threshold 90.0%']);
    assert.equal(failing.summary.metrics?.coverage_lines, 0.5882);
    assert.equal(failing.summary.coverage?.files[0]?.uncovered_lines, '6-10, 14-15');

    const passing = await run({ coverage_lines: 0.5, coverage_branches: 0.6 });
    assert.deepEqual(passing.summary.verdict, { can_ship: true, issues: [] });
  });
});

/** An agent suite of one case whose agent answers at once, so only the hooks run scripts. */
function echoSuite(): AgentestPlugin {
  const jsonl = join(APP, 'assistants/calc/tests/inputs.jsonl');
  const testCase: TestCase = {
    id: 'C1',
    kind: 'agent',
    input: 'hello',
    messages: [],
    source: { file: jsonl, line: 1 },
  };
  const suite: Suite = { name: jsonl, needsAgent: true, cases: () => [testCase], agentHint: { path: jsonl } };
  return {
    name: 'test:echo-suite',
    apply({ hooks }) {
      hooks.load.tapPromise('test:echo-suite', async () => suite);
      hooks.resolve.tapPromise('test:echo-suite', async () => ({ id: 'echo', run: async () => ({ content: 'hi' }) }));
      hooks.execute.for('agent').tapPromise('test:echo-suite', async (_c, ctx) => ({
        run: ctx.run,
        status: 'passed',
        duration_ms: 1,
        output: 'hi',
        assertions: [],
        metrics: {},
      }));
    },
  };
}
