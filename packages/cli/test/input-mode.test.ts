import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { detectInputMode } from '../src/input-mode.js';

test('-i scripts.<assistant>.<module> is a script test unless it names a file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-input-mode-'));
  try {
    writeFileSync(join(dir, 'scripts.smoke.jsonl'), '{"id":"S1","input":"hi"}\n');
    assert.equal(detectInputMode('scripts.expense.setup', dir), 'script');
    assert.equal(detectInputMode('scripts.smoke.jsonl', dir), 'file', 'an existing file');
    assert.equal(detectInputMode('scripts.jsonl', dir), 'file', "a JSONL file's name, even missing");
    assert.equal(detectInputMode('scripts.json', dir), 'file');
    assert.equal(detectInputMode('scripts:tests.gen.Generate', dir), 'generated');
    assert.equal(detectInputMode('cases.jsonl', dir), 'file');
    assert.equal(detectInputMode('hello there', dir), 'message');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
