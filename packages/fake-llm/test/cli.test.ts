import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseScript } from '../src/index.js';
import { chat, post } from './helpers.js';

const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));

describe('fake-llm CLI', () => {
  it('serves a JSON script until terminated', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fake-llm-'));
    const script = join(dir, 'replies.json');
    await writeFile(
      script,
      JSON.stringify({ rules: [{ match: 'capital of france', reply: 'Paris' }], default: 'no idea' }),
    );
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--conditions=@agentest/source', cli, '--port', '0', '--script', script],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      let out = '';
      child.stdout.setEncoding('utf8');
      while (!/listening on (\S+)/.test(out)) {
        const [chunk] = (await once(child.stdout, 'data')) as [string];
        out += chunk;
      }
      const url = /listening on (\S+)/.exec(out)![1];
      const body = await (await post(`${url}/v1/chat/completions`, chat('What is the Capital of France?'))).json();
      assert.equal(body.choices[0].message.content, 'Paris');
    } finally {
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      assert.equal(code, 0);
    }
  });

  it('reads a bare array as rules and rejects unknown keys', () => {
    assert.deepEqual(parseScript('[{"match": "x", "reply": "y"}]'), { rules: [{ match: 'x', reply: 'y' }] });
    assert.throws(() => parseScript('{"rule": []}', 'replies.json'), /replies\.json has unknown key\(s\) rule/);
    assert.throws(() => parseScript('{', 'replies.json'), /replies\.json is not valid JSON/);
    // A misspelt rule key would let the rule match and answer the default reply instead.
    assert.throws(
      () => parseScript('{"rules": [{"match": "x", "reply": "y"}, {"match": "z", "replay": "w"}]}', 'replies.json'),
      /replies\.json: rule 2 has unknown key\(s\) replay \(known: match, reply, fault, latencyMs, times\)/,
    );
    assert.throws(
      () => parseScript('[{"match": "x", "choices": []}]', 'r.json'),
      /rule 1 has unknown key\(s\) choices/,
    );
    assert.throws(() => parseScript('["x"]', 'r.json'), /rule 1 must be an object/);
  });
});
