import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentExecutor, inlineCases } from '@agentest/test-utils';
import {
  AgentestError,
  createKernel,
  type AgentestPlugin,
  type Assertion,
  type HelperUse,
  type TestCase,
} from '../src/index.js';
import { plan, testCase } from './helpers.js';

/** The suite of `cases`, an assertion `judged` whose judge is its `use`, and a resolver knowing only `known`. */
function judges(cases: TestCase[], known: string[], looked: string[] = []): AgentestPlugin[] {
  const helpers = (assertion: Assertion): HelperUse[] => {
    if (assertion.use === 'THROW') throw new Error('cannot read use');
    return [{ role: 'judge', use: `agents:${String(assertion.use)}`, ref: { id: String(assertion.use) } }];
  };
  const judgesPlugin: AgentestPlugin = {
    name: 'test:judges',
    apply({ hooks }) {
      hooks.assert.for('judged').tap({ name: 'test:judges', helpers }, () => ({ pass: true }));
      // The suite's own agent has no id here; a judge is found only when `known` has it.
      hooks.resolve.tapPromise('test:judges', async (ref) => {
        if (ref.id) looked.push(ref.id);
        return !ref.id || known.includes(ref.id)
          ? { id: ref.id ?? 'suite', run: async () => ({ content: 'ok' }) }
          : undefined;
      });
    },
  };
  return [inlineCases(cases), agentExecutor(), judgesPlugin];
}

const judged = (use: string): Assertion[] => [{ type: 'judged', use }];

test('the helpers the selected cases name are resolved once each before any case runs', async () => {
  const looked: string[] = [];
  const cases = [
    testCase('a', { assert: judged('grader') }),
    testCase('b', { assert: judged('grader') }),
    testCase('c', { checkpoints: [{ id: 'k', assert: judged('checker') }] }),
  ];
  const outcome = await createKernel({ plugins: judges(cases, ['grader', 'checker'], looked) }).run(plan());
  assert.equal(outcome.summary.total, 3);
  assert.deepEqual(looked.slice(0, 2), ['grader', 'checker'], 'once each, in the order the cases name them');
  assert.equal(looked.length, 2, 'the judged assertions of this test call no judge themselves');
});

test('an unknown helper is a configuration error naming the first case that names it; unselected cases are not asked', async () => {
  const cases = [
    testCase('ok', { assert: judged('grader') }),
    testCase('wrong', { assert: judged('nobody'), source: { file: 'cases.jsonl', line: 7 } }),
  ];
  const kernel = () => createKernel({ plugins: judges(cases, ['grader']) });
  await assert.rejects(kernel().run(plan()), (error: unknown) => {
    assert.ok(error instanceof AgentestError);
    assert.equal(error.code, 'HELPER_NOT_FOUND');
    assert.equal(error.where, 'cases.jsonl:7');
    assert.match(
      error.message,
      /^cases\.jsonl:7: case "wrong": the judge agents:nobody cannot be found: could not find agent "nobody"/,
    );
    return true;
  });
  await assert.rejects(kernel().list(plan()), { code: 'HELPER_NOT_FOUND' }, '--dry-run checks them too');
  const outcome = await kernel().run(plan({ filter: /^ok$/ }));
  assert.equal(outcome.summary.total, 1, 'a case --run leaves out is not checked');
});

test('a plugin whose helper declaration throws is named', async () => {
  const cases = [testCase('a', { assert: judged('THROW') })];
  await assert.rejects(createKernel({ plugins: judges(cases, []) }).run(plan()), {
    code: 'PLUGIN_ERROR',
    message: /plugin "test:judges" failed in hook "assert:judged \(helpers\)": cannot read use/,
  });
});
