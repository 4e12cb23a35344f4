import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as common from '../src/index.js';

/**
 * The shared value helpers, written out: adding one fails this test until the list is changed on
 * purpose (a helper only one package uses belongs in that package).
 */
const EXPORTS = [
  'carryExactText',
  'exactText',
  'formatUsd',
  'goDuration',
  'goJsonEscape',
  'hashString',
  'isCi',
  'lazy',
  'loadRe2',
  'mulberry32',
  'parseDuration',
  'parseJson',
  'pickWeighted',
  're2',
  're2Loaded',
  'replyJson',
  'safeStringify',
  'sameExactNumber',
  'withoutUnit',
];

test("@agentest/common's exported values are exactly the listed ones", () => {
  assert.deepEqual(Object.keys(common).sort(), EXPORTS);
});
