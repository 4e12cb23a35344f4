import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { resolveScriptFunction, resolveScriptTest } from '../src/index.js';
import type { AgentestError } from '@agentest/kernel';
import { APP, plan, runKernel } from './helpers.js';

describe('resolveScriptTest', () => {
  it('finds <assistant>/src/<module>_test.ts under assistants/', () => {
    const r = resolveScriptTest('scripts.iso.iso', APP);
    assert.equal(r.scriptPath, 'assistants/iso/src/iso_test.ts');
    assert.equal(r.assistantId, 'iso');
    assert.equal(r.testFile, join(APP, 'assistants/iso/src/iso_test.ts'));
  });

  it('uses the package.yao boundary for nested ids, with a module in a subdirectory and a .js file', () => {
    const r = resolveScriptTest('scripts.yao.keeper.tests.seed', APP);
    assert.equal(r.scriptPath, 'assistants/yao/keeper/src/tests/seed_test.js');
    assert.equal(r.assistantId, 'yao.keeper');
  });

  it('accepts an assistant at the root, without assistants/', () => {
    assert.equal(resolveScriptTest('scripts.flat.tools', APP).scriptPath, 'flat/src/tools_test.ts');
  });

  it('lists every path it tried when the test file is missing', () => {
    assert.throws(
      () => resolveScriptTest('scripts.iso.nothing', APP),
      (error: any) => {
        assert.equal(error.code, 'INPUT_NOT_FOUND');
        assert.match(
          error.message,
          /tried: assistants\/iso\/src\/nothing_test\.ts, assistants\/iso\/src\/nothing_test\.js/,
        );
        return true;
      },
    );
  });

  it('says when no assistant exists at all', () => {
    assert.throws(
      () => resolveScriptTest('scripts.ghost.setup', APP),
      (error: any) => {
        assert.match(
          error.message,
          /tried: assistants\/ghost\/src\/setup_test\.ts, assistants\/ghost\/src\/setup_test\.js, ghost\/src\/setup_test\.ts, ghost\/src\/setup_test\.js/,
        );
        assert.match(error.message, /no assistant found \(no package\.yao in assistants\/ghost or ghost\)/);
        return true;
      },
    );
  });

  it('rejects a reference without a module', () => {
    assert.throws(() => resolveScriptTest('scripts.expense', APP), /invalid script path/);
  });

  it('-i scripts.expense is an invalid script path naming the form, not an input no loader knows', async () => {
    await assert.rejects(
      runKernel(plan('scripts.expense', APP)),
      (error: AgentestError) =>
        error.code === 'INPUT_INVALID' &&
        /^invalid script path "scripts\.expense": use scripts\.<assistant>\.<module>/.test(error.message) &&
        /expense\/src\/setup_test\.ts/.test(error.hint),
    );
  });
});

describe('resolveScriptFunction', () => {
  it('resolves scripts.test.ValidateOutput to scripts/test.ts under the root', () => {
    assert.deepEqual(resolveScriptFunction('scripts.test.ValidateOutput', APP), {
      file: join(APP, 'scripts/test.ts'),
      fn: 'ValidateOutput',
    });
  });

  it("resolves scripts.<assistant>.<module>.<Fn> in the assistant's src/", () => {
    assert.deepEqual(resolveScriptFunction('scripts.hooks.env_test.Before', APP), {
      file: join(APP, 'assistants/hooks/src/env_test.ts'),
      fn: 'Before',
    });
  });

  it('lists the tried paths when nothing matches', () => {
    assert.throws(() => resolveScriptFunction('scripts.nope.Fn', APP), /tried: scripts\/nope\.ts, scripts\/nope\.js/);
  });
});
