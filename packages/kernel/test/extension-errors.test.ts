import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AgentestError, createKernel, isAgentestError, type AgentestPlugin, type CaseResult } from '../src/index.js';
import { PluginError } from '../src/errors.js';
import { collector, inlinePlugins, plan, testCase } from './helpers.js';

test('an AgentestError from another installed copy of the package is recognised, with its code and exit', async () => {
  // A second copy of the module, as a plugin that bundles its own @agentest/kernel would load.
  const url = new URL('../src/errors.ts', import.meta.url);
  url.search = '?second-copy';
  const other = (await import(url.href)) as typeof import('../src/errors.js');
  assert.notEqual(other.AgentestError, AgentestError, 'two distinct classes');
  const foreign = new other.AgentestError('DUPLICATE_CASE_ID', 'two cases share id "a"');
  assert.ok(foreign instanceof AgentestError);
  assert.ok(isAgentestError(foreign));
  assert.equal(foreign.exitCode, 2);
  assert.ok(new AgentestError('INPUT_INVALID', 'x') instanceof other.AgentestError);
  assert.ok(!(new Error('plain') instanceof AgentestError));
  assert.ok(!(new AgentestError('INPUT_INVALID', 'x') instanceof PluginError), 'a subclass still checks its own chain');
});

test("a plugin's own AgentestError from another copy keeps its code through a hook (exit 2, not PLUGIN_ERROR)", async () => {
  const url = new URL('../src/errors.ts', import.meta.url);
  url.search = '?loader-copy';
  const other = (await import(url.href)) as typeof import('../src/errors.js');
  const loader: AgentestPlugin = {
    name: 'bundled-loader',
    apply({ hooks }) {
      hooks.load.tap('bundled-loader', () => {
        throw new other.AgentestError('DUPLICATE_CASE_ID', 'cases.jsonl:2: id "a" is used twice');
      });
    },
  };
  const kernel = createKernel({ plugins: [loader] });
  await assert.rejects(
    kernel.run(plan()),
    (error: unknown) => isAgentestError(error) && error.code === 'DUPLICATE_CASE_ID' && error.exitCode === 2,
  );
});

test("a plugin whose apply throws is PLUGIN_INVALID (exit 2) naming the plugin and the plugin's message", async () => {
  const kernel = createKernel({
    plugins: [
      {
        name: 'picky',
        apply() {
          throw new TypeError('option "dir" must be a string');
        },
      },
    ],
  });
  await assert.rejects(kernel.run(plan()), (error: unknown) => {
    assert.ok(isAgentestError(error));
    assert.equal(error.code, 'PLUGIN_INVALID');
    assert.equal(error.exitCode, 2);
    assert.match(error.message, /plugin "picky" failed to apply: option "dir" must be a string/);
    return true;
  });
});

test("a throw inside an execute or an assert tap names the plugin on the case's error, and the run goes on", async () => {
  const faulty: AgentestPlugin = {
    name: 'faulty-tools',
    enforce: 'pre',
    apply({ hooks }) {
      hooks.execute.for('agent').tap('faulty-tools', (testCase) => {
        if (testCase.id === 'crash') throw new Error('socket closed');
        return undefined;
      });
      hooks.assert.for('tool-called').tap('faulty-tools', () => {
        throw new RangeError('trace index out of range');
      });
    },
  };
  const { plugin: reporter, events } = collector();
  const cases = [testCase('crash'), testCase('judged', { assert: [{ type: 'tool-called', value: 'x' }] })];
  const outcome = await createKernel({ plugins: [faulty, ...inlinePlugins(cases), reporter] }).run(plan());
  const results = events.filter((e) => e.type === 'result') as unknown as CaseResult[];
  const crash = results.find((r) => r.id === 'crash')!;
  assert.equal(crash.status, 'error');
  assert.match(crash.runs[0]!.error!, /plugin "faulty-tools" failed in hook "execute.*": socket closed/);
  const judged = results.find((r) => r.id === 'judged')!;
  assert.match(
    judged.assertions[0]!.message!,
    /plugin "faulty-tools" failed in hook "assert.*": trace index out of range/,
  );
  assert.deepEqual(outcome.errors, [], 'a case error, not a run error');
  assert.equal(outcome.summary.errors, 2);
});
