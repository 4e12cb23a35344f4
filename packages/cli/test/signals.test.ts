import assert from 'node:assert/strict';
import { test } from 'node:test';
import { watchSignals } from '../src/signals.js';

test('SIGHUP aborts the run like SIGTERM: interrupt and abort both fire, once', () => {
  let aborts = 0;
  const signals = watchSignals({ onAbort: () => aborts++ });
  try {
    process.emit('SIGHUP', 'SIGHUP');
    assert.equal(signals.interrupt.aborted, true);
    assert.equal(signals.abort.aborted, true);
    process.emit('SIGHUP', 'SIGHUP');
    assert.equal(aborts, 1);
  } finally {
    signals.dispose();
  }
  assert.equal(process.listenerCount('SIGHUP'), 0, 'dispose removes the handler');
});
