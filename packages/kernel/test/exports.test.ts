import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as errors from '../src/errors-entry.js';
import * as kernel from '../src/index.js';
import * as results from '../src/results-entry.js';
import * as runScope from '../src/run-scope-entry.js';
import * as secrets from '../src/secrets-entry.js';

/**
 * The kernel's main entry, written out: its core contract only (the kernel, its hook block, the plugin,
 * reporter, resolver and loader contracts, the error class, secret registration, the plan a loader
 * reads). The rest of the mechanism is on the subpaths below; value helpers belong in @agentest/common,
 * report helpers in @agentest/report. Adding a value fails this test until a list is changed on purpose.
 */
const EXPORTS = [
  'AgentestError',
  'Kernel',
  'checkPluginShape',
  'createHooks',
  'createKernel',
  'defineLoader',
  'definePlugin',
  'defineReporter',
  'defineResolver',
  'isAgentestError',
  'planContextOf',
  'registerSecret',
];

test("the kernel's exported values are exactly the listed ones", () => {
  assert.deepEqual(Object.keys(kernel).sort(), EXPORTS);
});

/** `@agentest/kernel/errors`: the catalogue and the helpers of its messages, without the run-time. */
const ERRORS_EXPORTS = [
  'AgentestError',
  'AgentestTypeError',
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

/**
 * `@agentest/kernel/secrets`: registration and redaction of the values never to print or store, and the
 * `DEBUG` logger whose lines are redacted.
 */
const SECRETS_EXPORTS = ['debugLogger', 'findSecret', 'redactSecrets', 'redactText', 'registerSecret'];

test("the secrets entry's exported values are exactly the listed ones", () => {
  assert.deepEqual(Object.keys(secrets).sort(), SECRETS_EXPORTS);
});

/** `@agentest/kernel/run-scope`: the tie between a case run and the calls made for it. */
const RUN_SCOPE_EXPORTS = ['bindRunScope', 'inheritRunScope', 'runScopeOf'];

test("the run-scope entry's exported values are exactly the listed ones", () => {
  assert.deepEqual(Object.keys(runScope).sort(), RUN_SCOPE_EXPORTS);
});

/** `@agentest/kernel/results`: the rules a result is built by. */
const RESULTS_EXPORTS = ['SummaryBuilder', 'addJudgeUsage', 'isUnasserted', 'matchesRunFilter', 'representativeRun'];

test("the results entry's exported values are exactly the listed ones", () => {
  assert.deepEqual(Object.keys(results).sort(), RESULTS_EXPORTS);
});
