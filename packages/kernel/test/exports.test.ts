import { test } from 'node:test';
import assert from 'node:assert/strict';
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
  'caseLogs',
  'checkPluginShape',
  'createHooks',
  'createKernel',
  'defineLoader',
  'definePlugin',
  'defineReporter',
  'defineResolver',
  'didYouMean',
  'editDistance',
  'errorMessage',
  'exactText',
  'findSecret',
  'formatDuration',
  'goDuration',
  'hashString',
  'inheritRunScope',
  'isAgentestError',
  'isCi',
  'judgeLine',
  'matchesRunFilter',
  'mulberry32',
  'parseDuration',
  'parseJson',
  'parseTagFilter',
  'pickWeighted',
  'planContextOf',
  'redactText',
  'registerSecret',
  'renderErrorCatalogue',
  'replyJson',
  'representativeRun',
  'runScopeOf',
  'safeStringify',
  'sameExactNumber',
  'varianceLine',
  'withoutUnit',
];

test("the kernel's exported values are exactly the listed ones", () => {
  assert.deepEqual(Object.keys(kernel).sort(), EXPORTS);
});
