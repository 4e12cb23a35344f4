import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { compileModule } from '../src/compile/compile.js';

/**
 * A call gets a process channel only when its bundle can reach the main thread; these are the cases
 * that decide it, including reaching it from a sibling module the entry imports.
 */
describe('usesHostRuntime', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-host-words-'));
  const compile = async (name: string, source: string) => {
    writeFileSync(join(dir, name), source);
    return (await compileModule(join(dir, name))).usesHostRuntime;
  };

  it('is false for a script that only computes and uses ctx output methods', async () => {
    assert.equal(
      await compile(
        'plain_test.ts',
        'export function TestSum(t: any, ctx: any) { ctx.Send("hi"); t.assert.Equal(1 + 1, 2); }\n',
      ),
      false,
    );
  });

  it('is true for Process, http and the stubbed ctx parts, whatever the ctx is called', async () => {
    assert.equal(await compile('process_test.ts', 'export function TestP(t: any) { Process("scripts.x.Y"); }\n'), true);
    assert.equal(
      await compile('http_test.ts', 'export function TestH(t: any) { http.Get("http://127.0.0.1/"); }\n'),
      true,
    );
    assert.equal(
      await compile('agent_test.ts', 'export function TestA(t: any, c: any) { c.agent.Call("x", []); }\n'),
      true,
    );
    assert.equal(
      await compile('memory_test.ts', 'export function TestM(t: any, c: any) { c.memory.user.Get("k"); }\n'),
      true,
    );
  });

  it('is true when only a sibling module the entry imports calls Process', async () => {
    writeFileSync(join(dir, 'helper.ts'), 'export function total() { return Process("scripts.cart.Total"); }\n');
    assert.equal(
      await compile(
        'uses_helper_test.ts',
        'import { total } from "./helper";\nexport function TestT(t: any) { t.assert.Equal(total(), 5); }\n',
      ),
      true,
    );
  });
});
