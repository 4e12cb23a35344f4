import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { agentest, fixture, PASSING } from './helpers.js';

test('a threshold name that is no metric is refused before the first case: FLAG_INVALID or CONFIG_INVALID, with a did-you-mean', async () => {
  const dir = fixture({ 'ok.jsonl': PASSING, 'proto.config.json': '{"thresholds": {"constructor": 0.5}}', 'typo.config.json': '{"thresholds": {"intent_match_rat": 0.5}}' });
  const flag = await agentest(['test', '-i', 'ok.jsonl', '-n', 'echo', '--threshold', 'pass_rat=0.9', '-o', 'out.jsonl'], { cwd: dir });
  assert.equal(flag.code, 2, flag.stderr);
  assert.match(flag.stderr, /error\[FLAG_INVALID\]: --threshold: no metric is named "pass_rat" \(did you mean "pass_rate"\?\)/);
  assert.equal(existsSync(join(dir, 'out.jsonl')), false, 'refused before the run started');
  const proto = await agentest(['test', '-i', 'ok.jsonl', '-n', 'echo', '--threshold', '__proto__=0.5', '--no-jsonl'], { cwd: dir });
  assert.equal(proto.code, 2, proto.stdout);
  assert.match(proto.stderr, /FLAG_INVALID.*"__proto__"/);
  const config = await agentest(['test', '-i', 'ok.jsonl', '-n', 'echo', '--config', 'proto.config.json', '--no-jsonl'], { cwd: dir });
  assert.equal(config.code, 2, config.stdout);
  assert.match(config.stderr, /error\[CONFIG_INVALID\]: thresholds\.constructor: no metric is named "constructor"/);
  const typo = await agentest(['test', '-i', 'ok.jsonl', '-n', 'echo', '--config', 'typo.config.json', '--no-jsonl'], { cwd: dir });
  assert.match(typo.stderr, /did you mean "intent_match_rate"/);
});
