import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COVERAGE_KEYS, coverageShape } from '@agentest/plugin-script/coverage-options';
import { configShape, normaliseConfig } from '../src/config/normalise-config.js';

// The config schema is built on first use, and an empty config is taken as `{}` without it: that is
// what the schema makes of one, so a run without a config file validates nothing and builds no schema.

test('the config schema makes {} of an empty config, as normaliseConfig takes it without the schema', async () => {
  assert.deepEqual(configShape().safeParse({}), { success: true, data: {} });
  const cwd = process.cwd();
  const empty = await normaliseConfig({}, { cwd });
  // The same config with a key the schema must look at normalises to the same result.
  assert.deepEqual(await normaliseConfig({ test: {} }, { cwd }), empty);
  assert.deepEqual(await normaliseConfig(undefined, { cwd }), empty);
});

test("the coverage section's keys, written out, are its schema's", () => {
  assert.deepEqual(COVERAGE_KEYS, Object.keys(coverageShape().shape));
});
