import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentestError } from '@agentest/kernel';
import agents from '../src/index.js';
import { run, testCase } from './helpers.js';

async function tempProject(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agentest-mock-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

const REPLIES_YAML = `
replies:
  - match: refund
    reply: Your refund is on its way.
  - match: "order \\\\d+"
    reply: Order found.
    latency_ms: 40
default: Sorry, I did not understand.
`;

test('-n mock finds mock.yaml next to the input and replies by pattern, with latency', async (t) => {
  const dir = await tempProject({ 'tests/mock.yaml': REPLIES_YAML });
  t.after(() => rm(dir, { recursive: true, force: true }));
  const cases = [testCase('refund please'), testCase('where is order 42'), testCase('hello')];
  const { outcome, byId } = await run(
    [agents()],
    cases,
    { agent: { id: 'mock' }, input: { input: 'inline', cwd: dir } },
    { path: join(dir, 'tests/cases.jsonl') },
  );
  assert.equal(outcome.summary.agent_id, 'mock');
  assert.equal(outcome.summary.agent_path, join(dir, 'tests/mock.yaml'));
  assert.equal(String(byId('refund please').output), 'Your refund is on its way.');
  assert.equal(String(byId('where is order 42').output), 'Order found.');
  assert.ok(
    byId('where is order 42').duration_ms >= 35,
    `latency applied (${byId('where is order 42').duration_ms}ms)`,
  );
  assert.equal(String(byId('hello').output), 'Sorry, I did not understand.');
});

test('seeded weighted choices give a reproducible mix over --runs 5', async (t) => {
  const dir = await tempProject({
    'mock.json': JSON.stringify({
      seed: 7,
      replies: [
        {
          choices: [
            { reply: 'yes', weight: 1 },
            { reply: 'no', weight: 1 },
          ],
        },
      ],
    }),
  });
  t.after(() => rm(dir, { recursive: true, force: true }));
  const sequence = async () => {
    const cases = ['a', 'b', 'c', 'd'].map((id) => testCase(id));
    const { results } = await run([agents()], cases, {
      agent: { id: 'mock' },
      runs: 5,
      input: { input: 'inline', cwd: dir },
    });
    return results.flatMap((r) => r.runs.map((e) => String(e.output)));
  };
  const first = await sequence();
  assert.equal(first.length, 20);
  assert.deepEqual(new Set(first), new Set(['yes', 'no']), 'both choices appear');
  assert.deepEqual(await sequence(), first, 'the same seed gives the same replies');
});

test('discovery walks up to the working directory; -n mock:<path> names the file', async (t) => {
  const dir = await tempProject({
    'mock.yml': '- reply: from the root\n',
    'elsewhere/replies.yaml': 'default: named file\n',
    'a/b/placeholder': '',
  });
  t.after(() => rm(dir, { recursive: true, force: true }));
  const walked = await run(
    [agents()],
    [testCase('x')],
    { agent: { id: 'mock' }, input: { input: 'inline', cwd: dir } },
    { path: join(dir, 'a/b/cases.jsonl') },
  );
  assert.equal(String(walked.results[0]!.output), 'from the root');
  const named = await run([agents()], [testCase('x')], {
    agent: { id: 'mock:elsewhere/replies.yaml' },
    input: { input: 'inline', cwd: dir },
  });
  assert.equal(String(named.results[0]!.output), 'named file');
});

test('a missing or invalid replies file is a clear error', async (t) => {
  const dir = await tempProject({
    'a/cases.jsonl': '',
    'bad/mock.yaml': 'replies: [unclosed\n',
    'shape/mock.yaml': 'replies: {match: x}\n',
    'regex/mock.yaml': 'replies:\n  - match: "("\n    reply: x\n',
  });
  t.after(() => rm(dir, { recursive: true, force: true }));
  const attempt = (id: string, hint?: string) =>
    run(
      [agents()],
      [testCase('x')],
      { agent: { id }, input: { input: 'inline', cwd: dir } },
      hint ? { path: join(dir, hint) } : undefined,
    ).then(
      () => assert.fail('expected a rejection'),
      (e: AgentestError) => e,
    );
  const missing = await attempt('mock', 'a/cases.jsonl');
  assert.equal(missing.code, 'INPUT_NOT_FOUND');
  assert.match(
    missing.message,
    /no replies file found \(looked at a\/mock\.yaml, a\/mock\.yml, a\/mock\.json, mock\.yaml, mock\.yml, mock\.json\)/,
  );
  const named = await attempt('mock:nope.yaml');
  assert.equal(named.code, 'INPUT_NOT_FOUND');
  assert.match(named.message, /-n mock:nope\.yaml: replies file not found/);
  const yaml = await attempt('mock', 'bad/cases.jsonl');
  assert.equal(yaml.code, 'CONFIG_INVALID');
  assert.match(yaml.message, /^bad\/mock\.yaml: not valid YAML/);
  const shape = await attempt('mock', 'shape/cases.jsonl');
  assert.equal(shape.code, 'CONFIG_INVALID');
  assert.match(shape.message, /^shape\/mock\.yaml: replies: /);
  const regex = await attempt('mock', 'regex/cases.jsonl');
  assert.equal(regex.code, 'CONFIG_INVALID');
  assert.match(regex.message, /^regex\/mock\.yaml: replies\.0\.match "\(" is not a valid regex/);
});
