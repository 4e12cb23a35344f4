import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import jsonReporter from '@agentest/reporter-json';
import jsonlReporter from '@agentest/reporter-jsonl';
import { mixedCases, runScenario, tempDir, type ScenarioCase } from '../../report/test/scenario.js';
import type { AgentestPlugin } from '@agentest/kernel';
import { compareReports, readReport } from '../src/index.js';

/** Runs the scenario once with both file reporters; returns the two files' paths. */
async function bothFormats(cases: ScenarioCase[], options: Parameters<typeof runScenario>[2] = {}) {
  const dir = await tempDir();
  await runScenario(
    cases,
    [jsonlReporter({ output: 'run.jsonl', cwd: dir }), jsonReporter({ output: 'run.json', cwd: dir })],
    options,
  );
  return { dir, jsonl: join(dir, 'run.jsonl'), json: join(dir, 'run.json') };
}

test('one run per case: the .jsonl stream and the .json report read into the same cases', async () => {
  const { jsonl, json } = await bothFormats(
    mixedCases().map((c) =>
      c.id === 'T001'
        ? {
            ...c,
            behaviour: () => ({
              output: 'AI, ML',
              usage: { prompt_tokens: 12, completion_tokens: 30 },
              metrics: { cost_usd: 0.002 },
            }),
          }
        : c,
    ),
  );
  for (const path of [jsonl, json]) {
    const input = await readReport(path);
    assert.deepEqual([...input.cases.keys()], ['T001', 'T002', 'T003', 'T004', 'T005', 'T006'], path);
    assert.equal(input.kind, 'agent');
    assert.equal(input.agent, 'keyword');
    assert.equal(input.runsPerCase, 1);
    assert.equal(input.complete, true);
    const t1 = input.cases.get('T001')!;
    assert.deepEqual(t1.runs, [{ status: 'passed', durationMs: 101, tokens: 42, cost: 0.002 }], path);
    assert.deepEqual(input.cases.get('T002')!.messages, ["output does not contain 'cloud'"], path);
    assert.deepEqual(
      input.cases.get('T003')!.runs.map((r) => r.status),
      ['timeout'],
    );
    assert.deepEqual(input.cases.get('T004')!.messages, ['agent exploded\n  at step 2']);
    assert.equal(input.cases.get('T005')!.status, 'skipped');
  }
  assert.equal((await readReport(jsonl)).format, 'jsonl');
  assert.equal((await readReport(json)).format, 'json');
  assert.equal((await readReport(jsonl)).suite, 'tests/inputs.jsonl');
});

test('several runs per case: every run is read from run_result lines and from stability_results', async () => {
  const flaky: ScenarioCase = {
    id: 'flaky',
    behaviour: (run) => (run % 2 ? { output: 'ok' } : { status: 'failed', error: `wrong on run ${run}` }),
  };
  const { jsonl, json } = await bothFormats([flaky, { id: 'solid' }], { runs: 4 });
  for (const path of [jsonl, json]) {
    const input = await readReport(path);
    assert.equal(input.runsPerCase, 4);
    assert.deepEqual(
      input.cases.get('flaky')!.runs.map((r) => r.status),
      ['passed', 'failed', 'passed', 'failed'],
      path,
    );
    assert.deepEqual(
      input.cases.get('flaky')!.runs.map((r) => r.durationMs),
      [101, 102, 103, 104],
      path,
    );
    assert.equal(input.cases.get('flaky')!.status, 'failed');
    assert.match(input.cases.get('flaky')!.messages.join('\n'), /wrong on run 2/);
    assert.equal(input.cases.get('solid')!.runs.length, 4);
  }
});

test('script suites: the .json script report names cases by "name"', async () => {
  const { jsonl, json } = await bothFormats(
    [{ id: 'TestAdd' }, { id: 'TestSub', behaviour: () => ({ status: 'failed', error: 'expected 1, got 2' }) }],
    { kind: 'script', suite: 'scripts.math.ops', meta: { script: 'scripts.math.ops', script_path: 'src/ops_test.ts' } },
  );
  for (const path of [jsonl, json]) {
    const input = await readReport(path);
    assert.equal(input.kind, 'script', path);
    assert.equal(input.suite, 'scripts.math.ops', path);
    assert.deepEqual([...input.cases.keys()], ['TestAdd', 'TestSub']);
    assert.deepEqual(input.cases.get('TestSub')!.messages, ['expected 1, got 2']);
  }
});

test('a stream cut short: the cut last line is left out and the run is marked incomplete', async () => {
  const { dir, jsonl } = await bothFormats([{ id: 'A' }, { id: 'B' }]);
  const { readFile } = await import('node:fs/promises');
  const lines = (await readFile(jsonl, 'utf8')).trim().split('\n');
  const cut = join(dir, 'cut.jsonl');
  await writeFile(cut, `${lines.filter((l) => !l.includes('"summary"')).join('\n')}\n{"type":"res`);
  const input = await readReport(cut);
  assert.equal(input.complete, false);
  assert.deepEqual([...input.cases.keys()], ['A', 'B']);
});

test('unreadable inputs: REPORT_UNREADABLE naming the file and the line', async () => {
  const dir = await tempDir();
  const files: Record<string, string> = {
    'empty.json': '',
    'garbage.json': 'not json at all',
    'other.json': '{"name": "a package.json"}',
    'mid.jsonl': '{"type":"start","suite":"s","kind":"agent"}\n{oops\n{"type":"summary"}\n',
    'nostart.jsonl': '{"type":"result","id":"A","status":"passed"}\n',
    'dup.jsonl':
      '{"type":"start","suite":"s","kind":"agent"}\n{"type":"result","id":"A","status":"passed"}\n{"type":"result","id":"A","status":"failed"}\n',
    'badstatus.jsonl': '{"type":"start","suite":"s","kind":"agent"}\n{"type":"result","id":"A","status":"fine"}\n',
  };
  for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
  const expectations: [string, RegExp][] = [
    ['missing.jsonl', /missing\.jsonl: does not exist/],
    ['empty.json', /empty\.json: is empty/],
    ['garbage.json', /garbage\.json: is neither a JSON report nor a JSONL event stream/],
    ['other.json', /other\.json: is JSON but not an agentest report/],
    ['mid.jsonl', /mid\.jsonl: line 2 is not a JSON object/],
    [
      'nostart.jsonl',
      /nostart\.jsonl: line 1 is a "result" event, but an agentest event stream starts with a "start" event/,
    ],
    ['dup.jsonl', /case "A" has two "result" lines \(2 and 3\)/],
    ['badstatus.jsonl', /line 2: a "result" event needs an "id" and a "status"/],
    ['.', /is a directory/],
  ];
  for (const [name, message] of expectations) {
    await assert.rejects(readReport(name, dir), (error: Error & { code?: string; where?: string }) => {
      assert.equal(error.code, 'REPORT_UNREADABLE', name);
      assert.match(error.message, message);
      return true;
    });
  }
});

test('a run a budget stopped is read as not finished in both formats, as an interrupted one is', async () => {
  const budget: AgentestPlugin = {
    name: 'test:budget',
    apply({ hooks, halt }) {
      hooks.report.tap('test:budget', (event) => {
        if (event.type === 'result') halt('budget (--max-tokens 1 reached: 5 tokens used)');
      });
    },
  };
  const dir = await tempDir();
  await runScenario(
    [{ id: 'a' }, { id: 'b' }, { id: 'c' }],
    [budget, jsonlReporter({ output: 'run.jsonl', cwd: dir }), jsonReporter({ output: 'run.json', cwd: dir })],
  );
  for (const file of ['run.jsonl', 'run.json']) {
    const input = await readReport(join(dir, file));
    assert.equal(input.complete, false, file);
  }
  const head = await readReport(join(dir, 'run.jsonl'));
  const comparison = compareReports({ ...head, complete: true }, head);
  assert.ok(
    comparison.notes.some((note) => /The head run did not finish \(interrupted, stopped by a budget/.test(note)),
    comparison.notes.join('\n'),
  );
});
