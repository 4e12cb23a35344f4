/**
 * `--coverage` through the real CLI: the app's scripts and hooks are measured in the sandbox threads,
 * mapped to their `.ts` lines in coverage/lcov.info, summed up after the run and in the reports, and the
 * config's minimums join the verdict.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { runCli } from './helpers/cli.js';
import { notRunOutput, workspace, writeJson } from './helpers/workspace.js';

const CALC_APP = fileURLToPath(new URL('../packages/plugin-script/test/fixtures/coverage-app', import.meta.url));
const EXAMPLE_APP = fileURLToPath(new URL('../examples/app', import.meta.url));

function calcApp(name: string, config?: Record<string, unknown>): string {
  const dir = workspace(name);
  cpSync(CALC_APP, dir, { recursive: true });
  if (config) writeJson(dir, 'agentest.config.json', config);
  return dir;
}

/** The `FNDA:<hits>,<function>` records of one source file in an lcov file. */
function functionHits(lcov: string, file: string): Record<string, number> {
  const record = lcov.split('end_of_record').find((r) => r.includes(`SF:${file}\n`));
  assert.ok(record, `lcov has a record for ${file}:\n${lcov}`);
  return Object.fromEntries([...record.matchAll(/^FNDA:(\d+),(.+)$/gm)].map(([, hits, name]) => [name, Number(hits)]));
}

describe('--coverage', () => {
  test('script tests: lcov maps the functions called and not called to their .ts file; a table follows the run', async () => {
    const dir = calcApp('scripts');
    const run = await runCli(['test', '-i', 'scripts.calc.calc', '--coverage', '-o', 'run.json'], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    const lcov = readFileSync(join(dir, 'coverage', 'lcov.info'), 'utf8');
    assert.deepEqual(functionHits(lcov, 'assistants/calc/src/calc.ts'), { add: 1, neverCalled: 0, sign: 1 });
    assert.match(lcov, /^DA:6,0$/m, "neverCalled's body (line 6) never ran");
    assert.match(lcov, /^DA:2,1$/m, "add's body (line 2) ran once");
    assert.match(run.stdout, /Coverage: 58\.8% of lines \(coverage\/lcov\.info\)/);
    assert.match(run.stdout, /calc\.ts\s*\|\s*58\.82 \|.*\| 6-10,14-15/);
    const report = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
    assert.equal(report.summary.coverage.files[0].file, 'assistants/calc/src/calc.ts');
    assert.equal(report.summary.coverage.lines.pct, 58.82);
  });

  test("the config's minimums join the verdict: below one, DO NOT SHIP, exit 1, one line that says which", async () => {
    const dir = calcApp('threshold', { coverage: { include: ['**/calc.ts'], lines: 90, functions: 50 } });
    const below = await runCli(['test', '-i', 'scripts.calc.calc', '--coverage', '-o', 'run.json'], { cwd: dir });
    assert.equal(below.code, 1, below.stderr);
    assert.match(below.stdout, /^✗ Coverage Lines 58\.8% < threshold 90\.0%: the run cannot ship$/m);
    assert.doesNotMatch(below.stdout, /Coverage Functions 66\.7% </, 'a minimum that is met is no issue');
    const report = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
    assert.equal(report.summary.coverage.lines.pct, 58.82);

    const off = await runCli(['test', '-i', 'scripts.calc.calc', '--no-coverage', '-o', 'off.json'], { cwd: dir });
    assert.equal(off.code, 0, 'without coverage the minimums are not measured and decide nothing');
    assert.doesNotMatch(off.stdout, /Coverage:/);
  });

  test('a coverage threshold above 1 is refused before the run: it is a share', async () => {
    const dir = calcApp('share');
    const run = await runCli(['test', '-i', 'scripts.calc.calc', '--coverage', '--threshold', 'coverage_lines=80'], {
      cwd: dir,
    });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /FLAG_INVALID.*coverage_lines is a share from 0 to 1, got 80: write coverage_lines=80%/);
    assert.equal(existsSync(join(dir, 'coverage')), false);
    // A minimum over 100 % is no percentage slip: it is said to be one no run can meet.
    const over = await runCli(['test', '-i', 'scripts.calc.calc', '--coverage', '--threshold', 'coverage_lines=101%'], {
      cwd: dir,
    });
    assert.equal(over.code, 2);
    assert.match(
      over.stderr,
      /FLAG_INVALID.*coverage_lines is a share from 0 to 1 \(at most 100%\), got 1\.01 \(101\.0%\): no run can/,
    );
    assert.doesNotMatch(over.stderr, /1\.01%/);
  });

  test("an assistant's Create and Next hooks, and the process they call, are counted", async () => {
    const dir = workspace('hooks');
    for (const part of ['app.yao', 'assistants', 'connectors', 'agent'])
      cpSync(join(EXAMPLE_APP, part), join(dir, part), { recursive: true, filter: notRunOutput });
    const run = await runCli(
      ['test', '-i', 'assistants/keyword/tests/inputs.jsonl', '--coverage', '--replay', '-o', 'run.jsonl'],
      { cwd: dir },
    );
    assert.ok(existsSync(join(dir, 'coverage', 'lcov.info')), run.stderr);
    const lcov = readFileSync(join(dir, 'coverage', 'lcov.info'), 'utf8');
    const hooks = functionHits(lcov, 'assistants/keyword/src/index.ts');
    assert.ok(hooks.Create! > 1, 'Create ran for the cases');
    assert.equal(hooks.Next, hooks.Create, 'Next ran after each Create');
    assert.ok(functionHits(lcov, 'assistants/keyword/src/answer.ts').Parse! > 0, 'Parse ran through Process()');
    assert.doesNotMatch(lcov, /yao-runtime/, 'the virtual @yao/runtime module is no source file');
  });
});
