import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentest, fixture, jsonl, MIXED } from './helpers.js';

test('non-TTY output is the plain Yao layout with no escape codes, even without NO_COLOR', async () => {
  const dir = fixture({ 'inputs.jsonl': MIXED });
  const run = await agentest(['test', '-i', 'inputs.jsonl', '-n', 'echo', '--no-jsonl', '-v'], {
    cwd: dir,
    env: { NO_COLOR: '' },
  });
  assert.equal(run.code, 1, run.stderr);
  assert.doesNotMatch(run.stdout, /\x1b\[/);
  const lines = run.stdout.split('\n');
  assert.equal(lines[1], '═'.repeat(63));
  assert.equal(lines[2], '  Agent Test');
  assert.ok(lines.includes('ℹ Agent: echo'));
  assert.ok(lines.includes('ℹ Input: inputs.jsonl (3 test cases)'));
  assert.ok(
    lines.some((l) => /^► \[T1\] hello world {2}PASSED \(\d+(µs|ms)\)$/.test(l)),
    run.stdout,
  );
  assert.ok(lines.includes('  └─ Output: hello world'));
  const t3 = lines.findIndex((l) => l.startsWith('► [T3] bye  FAILED'));
  assert.equal(lines[t3 + 1], "  └─ output does not contain 'hello'");
  assert.ok(lines.includes('  Total:     3'));
  assert.ok(lines.includes('  Pass Rate: 66.7%'));
  assert.ok(lines.includes('  ❌ TESTS FAILED'));
});

test('FORCE_COLOR turns colour on; --no-color and NO_COLOR turn it off', async () => {
  const dir = fixture({ 'inputs.jsonl': MIXED });
  const coloured = await agentest(['test', '-i', 'inputs.jsonl', '-n', 'echo', '--no-jsonl'], {
    cwd: dir,
    env: { NO_COLOR: '', FORCE_COLOR: '1' },
  });
  assert.match(coloured.stdout, /\x1b\[32mPASSED|\x1b\[1m\x1b\[32mPASSED/);
  const flag = await agentest(['test', '-i', 'inputs.jsonl', '-n', 'echo', '--no-jsonl', '--no-color'], {
    cwd: dir,
    env: { NO_COLOR: '', FORCE_COLOR: '1' },
  });
  assert.doesNotMatch(flag.stdout, /\x1b\[/);
  const env = await agentest(['test', '-i', 'inputs.jsonl', '-n', 'echo', '--no-jsonl'], {
    cwd: dir,
    env: { NO_COLOR: '1', FORCE_COLOR: '1' },
  });
  assert.doesNotMatch(env.stdout, /\x1b\[/);
});

test('stability runs print each run and the class line with its Wilson interval', async () => {
  const dir = fixture({
    'inputs.jsonl': jsonl([{ id: 'S1', input: 'steady', assert: { type: 'contains', value: 'steady' } }]),
  });
  const run = await agentest(['test', '-i', 'inputs.jsonl', '-n', 'echo', '--no-jsonl', '--runs', '3'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /ℹ Runs: 3 per test case \(stability analysis\)/);
  assert.match(run.stdout, / {2}Run 3: PASSED/);
  assert.match(run.stdout, / {2}\[S1\] 100% \(3\/3\) Stable avg:\S+ · 95% CI 43\.8–100%/);
  assert.match(run.stdout, /Stability Analysis\n {2}Runs per case: 3 {3}Total runs: 3/);
});
