/**
 * Scripts, `script` assertions and `test()` files see only the environment variables the config's
 * `script.env` names (plus TZ, LANG, NODE_ENV): a connector key in the environment never reaches them.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from './helpers/cli.js';
import { workspace, writeCases, writeJson } from './helpers/workspace.js';

const ENV = { AGENTEST_E2E_KEY: 'sk-test-SECRET-sandbox-env-0123456789', AGENTEST_E2E_VISIBLE: 'shown' };

test('scripts and test() files see only the variables script.env names: no connector key', async () => {
  const dir = workspace('sandbox-env');
  writeJson(dir, 'agentest.config.json', { script: { env: ['AGENTEST_E2E_VISIBLE'] } });
  mkdirSync(join(dir, 'scripts'));
  writeFileSync(
    join(dir, 'scripts/env.ts'),
    `// @ts-nocheck
export function Check() {
  const key = process.env.AGENTEST_E2E_KEY ?? null, visible = process.env.AGENTEST_E2E_VISIBLE ?? null;
  return { pass: key === null && visible === 'shown', message: 'saw key=' + (key === null ? 'none' : 'SET') + ' visible=' + visible };
}
`,
  );
  writeCases(dir, 'cases.jsonl', [
    { id: 'env', input: 'hello', assert: { type: 'script', script: 'scripts.env.Check' } },
  ]);
  mkdirSync(join(dir, 'tests'));
  writeFileSync(
    join(dir, 'tests/env.test.ts'),
    `import { test, expect } from '@agentest/test';
test('env', () => { expect(process.env.AGENTEST_E2E_KEY).toBeUndefined(); expect(process.env.AGENTEST_E2E_VISIBLE).toBe('shown'); });
`,
  );
  const jsonl = await runCli(['test', '-i', 'cases.jsonl', '-n', 'echo', '-o', 'report.json'], { cwd: dir, env: ENV });
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
    results: { id: string; status: string; error?: string }[];
  };
  assert.equal(report.results[0]!.status, 'passed', report.results[0]!.error ?? jsonl.stderr.slice(-2000));
  const kit = await runCli(['test', '-i', 'tests/env.test.ts', '-n', 'echo'], { cwd: dir, env: ENV });
  assert.equal(kit.code, 0, kit.stdout.slice(-2000) + kit.stderr.slice(-2000));
});
