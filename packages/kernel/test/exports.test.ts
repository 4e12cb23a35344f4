import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as errors from '../src/errors-entry.js';
import * as kernel from '../src/index.js';

/**
 * The kernel's values, written out: the mechanism (the kernel, its hook block, the plugin and reporter
 * contracts, the error catalogue, secrets, run scopes) and the small value helpers plugins share so that
 * they agree. A value no package outside the kernel uses does not belong here; adding one fails this
 * test until the list is changed on purpose.
 */
const EXPORTS = [
  'AgentestError',
  'ERROR_CATALOGUE',
  'Kernel',
  'SummaryBuilder',
  'addJudgeUsage',
  'bindRunScope',
  'carryExactText',
  'checkPluginShape',
  'createHooks',
  'createKernel',
  'defineLoader',
  'definePlugin',
  'defineReporter',
  'defineResolver',
  'errorMessage',
  'exactText',
  'findSecret',
  'goDuration',
  'hashString',
  'inheritRunScope',
  'isAgentestError',
  'isCi',
  'matchesRunFilter',
  'mulberry32',
  'parseDuration',
  'parseJson',
  'pickWeighted',
  'planContextOf',
  'redactSecrets',
  'redactText',
  'registerSecret',
  'replyJson',
  'representativeRun',
  'runScopeOf',
  'safeStringify',
  'sameExactNumber',
  'withoutUnit',
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
