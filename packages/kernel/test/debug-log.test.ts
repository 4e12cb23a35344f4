import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { debugLogger } from '../src/debug-log.js';
import { registerSecret } from '../src/secrets.js';

// `debug` is required by the first line a logger writes, not as the kernel loads: a start-up without
// `DEBUG` pays nothing for it. This file never imports `debug` itself, so the CommonJS cache shows when it loads.
const required = createRequire(import.meta.url).cache;
const debugLoaded = () => Object.keys(required).some((file) => /[\\/]node_modules[\\/]debug[\\/]/.test(file));
const KEY = 'sk-debug-log-test-0123456789abcdef';

function stderrOf(write: () => void): string {
  const chunks: string[] = [];
  const original = process.stderr.write;
  process.stderr.write = ((chunk: string) => (chunks.push(String(chunk)), true)) as typeof process.stderr.write;
  try {
    write();
  } finally {
    process.stderr.write = original;
  }
  return chunks.join('');
}

test('a debug logger loads `debug` with its first line, writes as `debug` does for the namespaces DEBUG names, redacted', () => {
  // `debug` reads DEBUG as it loads, as the process's environment at its start.
  process.env.DEBUG = 'agentest:test-log';
  const log = debugLogger('agentest:test-log');
  const other = debugLogger('agentest:other');
  assert.equal(debugLoaded(), false, 'making loggers loads nothing');

  const first = stderrOf(() => {
    log('hello %s', 'world');
    other('not shown');
  });
  assert.equal(debugLoaded(), true);
  assert.match(first, /agentest:test-log hello world\n/);
  assert.doesNotMatch(first, /not shown/);

  registerSecret(KEY);
  const redacted = stderrOf(() => log('sending %s', KEY));
  assert.ok(!redacted.includes(KEY), redacted);
  assert.match(redacted, /sending \[redacted\]/);
});
