import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentest, fixture, jsonl } from './helpers.js';

/** An agent that answers with the context it was given, so the report shows what the agent saw. */
const SPY_CONFIG = `export default { agents: { spy: { run: async (messages, ctx) => ({ content: ctx, text: JSON.stringify(ctx) }) } } };`;
const CASES = jsonl([
  { id: 'C1', input: 'who am i' },
  { id: 'C2', input: 'and now', user: 'case-user', team: 'case-team' },
]);

async function seen(args: string[], files: Record<string, string> = {}) {
  const dir = fixture({ 'agentest.config.mjs': SPY_CONFIG, 'inputs.jsonl': CASES, ...files });
  const run = await agentest(['test', '-i', 'inputs.jsonl', '-n', 'spy', '-o', 'r.json', ...args], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'));
  return { report, ctx: (id: string) => report.results.find((r: { id: string }) => r.id === id).output };
}

test('without flags the case fields win over the defaults', async () => {
  const { ctx } = await seen([]);
  assert.equal(ctx('C1').user_id, 'test-user');
  assert.equal(ctx('C2').user_id, 'case-user');
  assert.equal(ctx('C2').authorized.team_id, 'case-team');
});

test('-u/-t override the case fields', async () => {
  const { ctx } = await seen(['-u', 'admin', '-t', 'ops']);
  assert.equal(ctx('C2').user_id, 'admin');
  assert.equal(ctx('C2').team_id, 'ops');
});

test('--ctx: its authorized identity wins over -u for what the agent sees; the report environment keeps -u', async () => {
  const file = {
    authorized: {
      sub: 'user-12345',
      user_id: 'ctx-user',
      team_id: 'team-001',
      scope: 'read write',
      constraints: { team_only: true, extra: { region: 'us-west' } },
    },
    metadata: { request_id: 'req-123' },
    client: { type: 'web', ip: '192.168.1.100', user_agent: 'Mozilla/5.0' },
    locale: 'zh-cn',
    referer: 'https://example.com/dashboard',
  };
  const { ctx, report } = await seen(['-u', 'admin', '--ctx', 'ctx.json'], { 'ctx.json': JSON.stringify(file) });
  const c = ctx('C1');
  assert.equal(c.authorized.user_id, 'ctx-user');
  assert.equal(c.authorized.sub, 'user-12345');
  assert.equal(c.authorized.constraints.team_only, true);
  assert.equal(c.locale, 'zh-cn');
  assert.equal(c.client.type, 'web');
  assert.equal(c.metadata.request_id, 'req-123');
  assert.equal(report.environment.user_id, 'admin');
  assert.equal(report.environment.locale, 'zh-cn');
  assert.match(report.metadata.options.ctx, /ctx\.json$/);
});

test('script tests: the --ctx identity wins over -u/-t in the header and the report, as in what the tests see', async () => {
  const dir = fixture({
    'app.yao': '{}',
    'assistants/expense/package.yao': '{"name": "Expense"}',
    'assistants/expense/src/who_test.ts':
      'function TestWho(t, ctx) { t.log(ctx.authorized.user_id + "/" + ctx.authorized.team_id + " " + ctx.User.ID + "/" + ctx.Team.ID); }\n',
    'ctx.json': JSON.stringify({ authorized: { user_id: 'ctx-user', tenant_id: 'ctx-tenant' } }),
  });
  const args = ['test', '-i', 'scripts.expense.who', '-u', 'flag-user', '-t', 'flag-team', '--ctx', 'ctx.json'];
  const run = await agentest([...args, '-o', 'r.json'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /User: ctx-user\n\s*Team: ctx-tenant\n/);
  const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'));
  assert.equal(report.environment.user_id, 'ctx-user');
  assert.equal(report.environment.team_id, 'ctx-tenant');
  assert.deepEqual(report.results[0].logs, ['ctx-user/ctx-tenant ctx-user/ctx-tenant']);
  // Without --ctx the flags name the identity.
  const plain = await agentest(['test', '-i', 'scripts.expense.who', '-u', 'flag-user', '-t', 'flag-team'], {
    cwd: dir,
  });
  assert.match(plain.stdout, /User: flag-user\n\s*Team: flag-team\n/);
});

test('the config test.ctx is read relative to the config file; --ctx replaces it', async () => {
  const { ctx } = await seen([], {
    'agentest.config.mjs': SPY_CONFIG.replace('export default {', "export default { test: { ctx: 'env/ctx.json' },"),
    'env/ctx.json': '{"locale": "fr-fr"}',
    'other.json': '{"locale": "de-de"}',
  });
  assert.equal(ctx('C1').locale, 'fr-fr');
  const flagged = await seen(['--ctx', 'other.json'], {
    'agentest.config.mjs': SPY_CONFIG.replace('export default {', "export default { test: { ctx: 'env/ctx.json' },"),
    'env/ctx.json': '{"locale": "fr-fr"}',
    'other.json': '{"locale": "de-de"}',
  });
  assert.equal(flagged.ctx('C1').locale, 'de-de');
});

test('a bad --ctx file is CONTEXT_FILE_INVALID naming the file and the field', async () => {
  const cases: [string, RegExp][] = [
    ['{"authorized": {"remember_me": "yes"}}', /ctx\.json: field "authorized\.remember_me": .*boolean/],
    ['{"authorised": {}}', /ctx\.json: unknown field "authorised" \(did you mean "authorized"\?\)/],
    ['{"client": {"type": "web", "agent": "x"}}', /unknown field "client\.agent"/],
    ['{not json', /ctx\.json: not valid JSON/],
  ];
  for (const [text, pattern] of cases) {
    const dir = fixture({ 'agentest.config.mjs': SPY_CONFIG, 'inputs.jsonl': CASES, 'ctx.json': text });
    const run = await agentest(['test', '-i', 'inputs.jsonl', '-n', 'spy', '--ctx', 'ctx.json'], { cwd: dir });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /^error\[CONTEXT_FILE_INVALID\]: /);
    assert.match(run.stderr, pattern);
  }
  const missing = await agentest(['test', '-i', 'inputs.jsonl', '-n', 'spy', '--ctx', 'nope.json'], {
    cwd: fixture({ 'agentest.config.mjs': SPY_CONFIG, 'inputs.jsonl': CASES }),
  });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /nope\.json: file not found/);
});
