import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestContext, testContextFactory, yaoPlanContext } from '../src/test-context.js';

test('testContextFactory builds what buildTestContext builds, as fresh objects for every case', () => {
  const file = {
    authorized: { user_id: 'ctx-user', scope: 'all' },
    metadata: { tier: 'gold' },
    client: { ip: '10.0.0.1' },
  };
  const inputs = { flags: { team: 'flag-team' }, file, assistantId: 'bot' };
  const make = testContextFactory(inputs);
  for (const testCase of [undefined, {}, { user: 'case-user' }, { team: 'case-team' }]) {
    assert.deepEqual(make(testCase, 'test-T1'), buildTestContext({ ...inputs, testCase, chatId: 'test-T1' }));
  }
  const [one, two] = [make(undefined, 'test-1'), make(undefined, 'test-2')];
  assert.equal(two.chat_id, 'test-2');
  (one.metadata as Record<string, unknown>).changed = true;
  assert.equal((two.metadata as Record<string, unknown>).changed, undefined);
  assert.notEqual(one.authorized, two.authorized);
  assert.notEqual(one.client, two.client);
});

test('yaoPlanContext: the report environment keeps -u; the agent sees the --ctx identity; defaults fill the rest', () => {
  const context = yaoPlanContext({ user: 'flag-user', ctx: { authorized: { user_id: 'ctx-user' }, locale: 'zh-cn' } });
  assert.deepEqual(context.environment, {
    user_id: 'flag-user',
    team_id: 'test-team',
    locale: 'zh-cn',
    client_type: 'test',
    client_ip: '127.0.0.1',
    referer: 'test',
    accept: 'standard',
  });
  const forRun = context.forAgent('bot');
  const seen = forRun({ team: 'case-team' }, 'test-T1');
  assert.equal(seen.user_id, 'ctx-user');
  assert.equal(seen.team_id, 'case-team');
  assert.equal(seen.assistant_id, 'bot');
  assert.equal(seen.chat_id, 'test-T1');
});

test('yaoPlanContext for script tests: the --ctx identity wins over -u/-t in the environment too', () => {
  const env = { user: 'flag-user', team: 'flag-team', ctx: { authorized: { user_id: 'ctx-user', tenant_id: 'acme' } } };
  const { environment } = yaoPlanContext(env, { script: true });
  assert.equal(environment.user_id, 'ctx-user');
  assert.equal(environment.team_id, 'acme');
  assert.equal(yaoPlanContext({ user: 'flag-user' }, { script: true }).environment.user_id, 'flag-user');
  assert.equal(yaoPlanContext(env).environment.user_id, 'flag-user');
});
