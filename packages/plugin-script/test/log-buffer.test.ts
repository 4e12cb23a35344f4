import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boundedLogs } from '../src/worker/log-buffer.js';

test('log lines past the limit are counted in one closing line, not kept', () => {
  const logs = boundedLogs(3, 1000);
  for (let i = 0; i < 10; i++) logs.push(`line ${i}`);
  assert.deepEqual(logs, [
    'line 0',
    'line 1',
    'line 2',
    '… 7 more log lines not kept (limit 3 lines / 1000 characters)',
  ]);
});

test('the character limit applies too, and the array stays structured-cloneable', () => {
  const logs = boundedLogs(100, 10);
  logs.push('12345', '67890', 'x');
  assert.deepEqual(structuredClone(logs), [
    '12345',
    '67890',
    '… 1 more log line not kept (limit 100 lines / 10 characters)',
  ]);
});
