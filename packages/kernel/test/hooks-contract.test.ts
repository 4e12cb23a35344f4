import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AsyncSeriesBailHook, AsyncSeriesHook, HookMap } from 'tapable';
import { createHooks, HOOK_NAMES } from '../src/hooks.js';

test('the hook block has exactly the designed hooks, classes and names', () => {
  const hooks = createHooks();
  assert.deepEqual(Object.keys(hooks), [...HOOK_NAMES]);
  assert.ok(Object.isFrozen(hooks));
  assert.equal(hooks.setup.constructor, AsyncSeriesHook);
  assert.equal(hooks.resolve.constructor, AsyncSeriesBailHook);
  assert.equal(hooks.load.constructor, AsyncSeriesBailHook);
  assert.equal(hooks.execute.constructor, HookMap);
  assert.equal(hooks.execute.for('agent').constructor, AsyncSeriesBailHook);
  assert.equal(hooks.assert.constructor, HookMap);
  assert.equal(hooks.assert.for('contains').constructor, AsyncSeriesBailHook);
  assert.equal(hooks.report.constructor, AsyncSeriesHook);
  assert.equal(hooks.teardown.constructor, AsyncSeriesHook);
  assert.deepEqual(
    [
      hooks.setup.name,
      hooks.resolve.name,
      hooks.load.name,
      hooks.execute.for('x').name,
      hooks.assert.for('y').name,
      hooks.report.name,
      hooks.teardown.name,
    ],
    ['setup', 'resolve', 'load', 'execute:x', 'assert:y', 'report', 'teardown'],
  );
});
