/**
 * Wrong verdicts through the real CLI: an assertion that could not be evaluated is an error whatever
 * `negate` says, "exists" needs a node, and the case timeout covers the assertions.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runCli, stackFrames } from './helpers/cli.js';
import { readEvents, resultsById } from './helpers/events.js';
import { workspace, writeCases } from './helpers/workspace.js';

const SCRIPTS = `
export function Throws() { throw new Error('validator exploded'); }
export async function Rejects() { throw new Error('validator rejected'); }
export function Junk() { return 'yes'; }
export function Hangs() { while (true) {} }
export async function HangsAsync() { await new Promise(() => {}); }
export function IsHello(output) { return output === 'hello'; }
`;

function suiteDir(name: string): string {
  const dir = workspace(name);
  mkdirSync(join(dir, 'scripts'));
  writeFileSync(join(dir, 'scripts', 'checks.ts'), SCRIPTS);
  return dir;
}

/**
 * A timer may fire up to 2 ms before `performance.now()` says its time is up: libuv keeps its loop time in whole
 * milliseconds, read from a clock that may lag one tick (1 ms) behind on kernels where the coarse clock is that fine.
 */
const TIMER_EARLY_MS = 2;

const check = (fn: string, extra: Record<string, unknown> = {}) => ({
  type: 'script',
  script: `scripts.checks.${fn}`,
  ...extra,
});

describe('verdicts through the CLI', () => {
  test('could not judge is not judged false: negated or not, the case is an error with the reason', async () => {
    const dir = suiteDir('unjudged');
    writeCases(dir, 'cases.jsonl', [
      { id: 'throws', input: 'hello', assert: [check('Throws', { negate: true })] },
      { id: 'rejects', input: 'hello', assert: [check('Rejects', { negate: true })] },
      { id: 'junk', input: 'hello', assert: [check('Junk', { negate: true })] },
      { id: 'missing', input: 'hello', assert: [check('Missing', { negate: true })] },
      { id: 'not-json', input: 'hello', assert: [{ type: 'json_path', path: '$.error', negate: true }] },
      { id: 'exists-nothing', input: '{"items": []}', assert: [{ type: 'json_path', path: '$.items[*].id' }] },
      { id: 'exists-deep', input: '{"a": {"b": [{"id": 1}]}}', assert: [{ type: 'json_path', path: '$..id' }] },
      {
        id: 'judged',
        input: 'hello',
        assert: [check('IsHello'), check('IsHello', { negate: true, message: 'must not be hello' })],
      },
    ]);
    const run = await runCli(['test', '-i', 'cases.jsonl', '-n', 'echo', '-o', 'out.jsonl'], { cwd: dir });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.deepEqual(stackFrames(run.stderr), []);
    const byId = resultsById(readEvents(join(dir, 'out.jsonl')));
    const status = Object.fromEntries([...byId].map(([id, r]) => [id, r.status]));
    assert.deepEqual(status, {
      throws: 'error',
      rejects: 'error',
      junk: 'error',
      missing: 'error',
      'not-json': 'error',
      'exists-nothing': 'failed',
      'exists-deep': 'passed',
      judged: 'failed',
    });
    assert.match(
      byId.get('throws')!.error!,
      /^script assertion could not be evaluated: scripts\.checks\.Throws failed: .*validator exploded/,
    );
    assert.match(byId.get('rejects')!.error!, /validator rejected/);
    assert.match(byId.get('junk')!.error!, /returned "yes"; return a boolean or \{pass, message\}/);
    assert.match(byId.get('missing')!.error!, /no function Missing/);
    assert.equal(
      byId.get('not-json')!.error,
      'json_path assertion could not be evaluated: output is not valid JSON: hello',
    );
    assert.equal(byId.get('exists-nothing')!.error, "path '$.items[*].id': expected a value, got nothing (no match)");
    assert.equal(byId.get('judged')!.error, 'must not be hello');
  });

  test('integers beyond 2^53 compare exactly: 12345678901234567890 is not 12345678901234567891', async () => {
    const dir = suiteDir('big-integers');
    const lines = [
      '{"id": "path-differs", "input": "{\\"n\\": 12345678901234567891}", "assert": [{"type": "json_path", "path": "$.n", "value": 12345678901234567890}]}',
      '{"id": "expected-differs", "input": "{\\"n\\": 12345678901234567891}", "expected": {"n": 12345678901234567890}}',
      '{"id": "path-same", "input": "{\\"n\\": 12345678901234567890}", "assert": [{"type": "json_path", "path": "$.n", "value": 12345678901234567890}]}',
      '{"id": "expected-same", "input": "{\\"n\\": 12345678901234567890}", "expected": {"n": 12345678901234567890}}',
    ];
    writeFileSync(join(dir, 'cases.jsonl'), lines.join('\n') + '\n');
    const run = await runCli(['test', '-i', 'cases.jsonl', '-n', 'echo', '-o', 'out.jsonl'], { cwd: dir });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const byId = resultsById(readEvents(join(dir, 'out.jsonl')));
    assert.deepEqual(Object.fromEntries([...byId].map(([id, r]) => [id, r.status])), {
      'path-differs': 'failed',
      'expected-differs': 'failed',
      'path-same': 'passed',
      'expected-same': 'passed',
    });
    assert.equal(
      byId.get('path-differs')!.error,
      "path '$.n': expected 12345678901234567890, got 12345678901234567891",
    );
    assert.equal(
      byId.get('expected-differs')!.error,
      'output does not match expected: expected {"n":12345678901234567890}, got {"n":12345678901234567891}',
    );
  });

  test('a quoted filter in a json_path is refused before the first case, like any filter', async () => {
    const dir = suiteDir('quoted-filter');
    writeCases(dir, 'cases.jsonl', [
      { id: 'q', input: '{"a": 1}', assert: [{ type: 'json_path', path: "$['?(@.a)']", negate: true }] },
    ]);
    const run = await runCli(['test', '-i', 'cases.jsonl', '-n', 'echo'], { cwd: dir });
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.match(run.stderr, /ASSERTION_INVALID/);
    assert.match(run.stderr, /cases\.jsonl:1/);
    assert.match(run.stderr, /filter and script expressions/);
  });

  test('two hanging script assertions under timeout "2s" end as a timeout at the case deadline, with the real duration', async () => {
    const dir = suiteDir('deadline');
    writeCases(dir, 'cases.jsonl', [
      { id: 'hangs', input: 'hello', timeout: '2s', assert: [check('Hangs'), check('HangsAsync')] },
      // Its clock also runs while a worker replaces the one the hang blocked: seconds on a busy machine.
      { id: 'next', input: 'hello', timeout: '2m', assert: [check('IsHello')] },
    ]);
    const run = await runCli(['test', '-i', 'cases.jsonl', '-n', 'echo', '-o', 'out.jsonl'], { cwd: dir });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const byId = resultsById(readEvents(join(dir, 'out.jsonl')), ['hangs', 'next']);
    const hangs = byId.get('hangs')!;
    assert.equal(hangs.status, 'timeout');
    // The case deadline ended it, not the assertion's own limit (30 s): that would be an error, "… timed out".
    assert.equal(hangs.error, 'timeout after 2s in assertion 1 of 2 (script)');
    assert.ok((hangs.duration_ms as number) >= 2000 - TIMER_EARLY_MS, `the real duration: ${hangs.duration_ms} ms`);
    assert.equal(byId.get('next')!.status, 'passed', byId.get('next')!.error);
  });
});
