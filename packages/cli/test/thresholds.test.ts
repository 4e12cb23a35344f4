import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseFlags } from '../src/flags.js';
import { agentest, fixture, PASSING } from './helpers.js';

test('a threshold name that is no metric is refused before the first case: FLAG_INVALID or CONFIG_INVALID, with a did-you-mean', async () => {
  const dir = fixture({ 'ok.jsonl': PASSING, 'proto.config.json': '{"thresholds": {"constructor": 0.5}}' });
  const [flag, config] = await Promise.all([
    agentest(['test', '-i', 'ok.jsonl', '-n', 'echo', '--threshold', 'pass_rat=0.9', '-o', 'out.jsonl'], { cwd: dir }),
    agentest(['test', '-i', 'ok.jsonl', '-n', 'echo', '--config', 'proto.config.json', '--no-jsonl'], { cwd: dir }),
  ]);
  assert.equal(flag.code, 2, flag.stderr);
  assert.match(
    flag.stderr,
    /error\[FLAG_INVALID\]: --threshold: no metric is named "pass_rat" \(did you mean "pass_rate"\?\)/,
  );
  assert.equal(existsSync(join(dir, 'out.jsonl')), false, 'refused before the run started');
  assert.equal(config.code, 2, config.stdout);
  assert.match(config.stderr, /error\[CONFIG_INVALID\]: thresholds\.constructor: no metric is named "constructor"/);
});

test('--threshold __proto__=… is a name like any other (then refused), not a prototype swap', () => {
  const { thresholds } = parseFlags({ input: 'x', threshold: ['__proto__=0.5'] });
  assert.deepEqual(Object.keys(thresholds), ['__proto__']);
  assert.equal(Object.getPrototypeOf(thresholds), null);
});
