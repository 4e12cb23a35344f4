import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as errors from '../src/errors-entry.js';
import * as kernel from '../src/index.js';

/**
 * The kernel's values, written out: its mechanism only (the kernel, its hook block, the plugin,
 * reporter, resolver and loader contracts, the error catalogue, secrets, run scopes, and the rules a
 * result is built by). Value helpers belong in @agentest/common, report helpers in @agentest/report;
 * adding a value fails this test until the list is changed on purpose.
 */
const EXPORTS = [
  'AgentestError',
  'ERROR_CATALOGUE',
  'Kernel',
  'SummaryBuilder',
  'addJudgeUsage',
  'bindRunScope',
  'checkPluginShape',
  'createHooks',
  'createKernel',
  'defineLoader',
  'definePlugin',
  'defineReporter',
  'defineResolver',
  'errorMessage',
  'findSecret',
  'inheritRunScope',
  'isAgentestError',
  'matchesRunFilter',
  'planContextOf',
  'redactSecrets',
  'redactText',
  'registerSecret',
  'representativeRun',
  'runScopeOf',
];

test("the kernel's exported values are exactly the listed ones", () => {
  assert.deepEqual(Object.keys(kernel).sort(), EXPORTS);
});

/** `@agentest/kernel/errors`: the catalogue and the helpers of its messages, without the run-time. */
const ERRORS_EXPORTS = [
  'AgentestError',
  'ERROR_CATALOGUE',
  'didYouMean',
  'editDistance',
  'errorMessage',
  'isAgentestError',
  'renderErrorCatalogue',
];

test("the errors entry's exported values are exactly the listed ones", () => {
  assert.deepEqual(Object.keys(errors).sort(), ERRORS_EXPORTS);
});
