import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startFakeLlm, type FakeLlm } from '@agentest/fake-llm';
import { ask, harness, openaiConnector, writeTree } from './helpers.js';

let fake: FakeLlm;
before(async () => {
  fake = await startFakeLlm({ rules: [{ match: /./, reply: (input) => `model=${input.request.model}` }] });
});
after(() => fake.close());

const PROMPTS = '- role: system\n  content: Answer.\n';

/** An app with connectors fake.a … fake.d (models a … d); `files` adds or replaces files. */
function app(files: Record<string, string>) {
  return writeTree({
    'app.yao': '{}',
    'assistants/bot/prompts.yml': PROMPTS,
    ...Object.fromEntries(
      ['a', 'b', 'c', 'd'].map((m) => [
        `connectors/fake/${m}.conn.yao`,
        JSON.stringify(openaiConnector(fake.url, { model: m })),
      ]),
    ),
    ...files,
  });
}

const AGENT_YML = 'system:\n  default: fake.b\n  light: fake.c\n';

function h() {
  return harness({ env: { FAKE_KEY: 'k' } });
}

/** The model that answered and the trace's account of where the connector came from. */
async function used(root: string, options: Record<string, unknown> = {}, connector?: string) {
  const agent = await h().resolve({ id: 'bot', ...(connector ? { connector } : {}) }, root);
  const reply = await ask(agent, 'hi', options);
  return {
    content: reply.content,
    connector: reply.trace?.connector,
    from: reply.trace?.connector_from,
    agentConnector: agent?.connector,
  };
}

function codeAndMessage(code: string, ...patterns: RegExp[]) {
  return (error: Error & { code?: string }) => {
    assert.equal(error.code, code, error.message);
    for (const pattern of patterns) assert.match(error.message, pattern);
    return true;
  };
}

describe('connector chain', () => {
  it('uses agent.yml system.default when package.yao names no connector', async () => {
    const root = app({ 'assistants/bot/package.yao': '{}', 'agent/agent.yml': AGENT_YML });
    assert.deepEqual(await used(root), {
      content: 'model=b',
      connector: 'fake.b',
      from: 'agent.yml system.default',
      agentConnector: 'fake.b',
    });
  });

  it('resolves package.yao "use::<role>" through agent.yml', async () => {
    const root = app({ 'assistants/bot/package.yao': '{ "connector": "use::light" }', 'agent/agent.yml': AGENT_YML });
    const result = await used(root);
    assert.equal(result.content, 'model=c');
    assert.equal(result.from, 'package.yao "use::light" → agent.yml system.light');
  });

  it('falls back to system.default for a role agent.yml leaves unset, and reads "use::" as the default role', async () => {
    const vision = app({
      'assistants/bot/package.yao': '{ "connector": "use::vision" }',
      'agent/agent.yml': AGENT_YML,
    });
    const result = await used(vision);
    assert.equal(result.content, 'model=b');
    assert.equal(result.from, 'package.yao "use::vision" → agent.yml system.default (no system.vision)');
    const bare = app({ 'assistants/bot/package.yao': '{ "connector": "use::" }', 'agent/agent.yml': AGENT_YML });
    assert.equal((await used(bare)).content, 'model=b');
  });

  it('ranks package.yao above agent.yml, the case above package.yao, -c above the case', async () => {
    const root = app({ 'assistants/bot/package.yao': '{ "connector": "fake.a" }', 'agent/agent.yml': AGENT_YML });
    assert.equal((await used(root)).content, 'model=a', 'package.yao beats system.default');
    const byCase = await used(root, { connector: 'fake.d' });
    assert.deepEqual([byCase.content, byCase.from], ['model=d', 'options.connector']);
    const byFlag = await used(root, { connector: 'fake.d' }, 'fake.c');
    assert.deepEqual([byFlag.content, byFlag.from, byFlag.agentConnector], ['model=c', '-c', 'fake.c']);
  });

  it('lets -c win over a package.yao role, and a case name a role too', async () => {
    const root = app({ 'assistants/bot/package.yao': '{ "connector": "use::light" }', 'agent/agent.yml': AGENT_YML });
    assert.equal((await used(root, {}, 'fake.a')).content, 'model=a');
    const byCase = await used(root, { connector: 'use::default' });
    assert.deepEqual(
      [byCase.content, byCase.from],
      ['model=b', 'options.connector "use::default" → agent.yml system.default'],
    );
  });

  it('takes a role from -c: "-c use::light" goes through agent.yml, an unknown role stops the run naming -c', async () => {
    const root = app({ 'assistants/bot/package.yao': '{ "connector": "fake.a" }', 'agent/agent.yml': AGENT_YML });
    const byFlag = await used(root, { connector: 'fake.d' }, 'use::light');
    assert.deepEqual(
      [byFlag.content, byFlag.from, byFlag.agentConnector],
      ['model=c', '-c "use::light" → agent.yml system.light', 'fake.c'],
    );
    await assert.rejects(
      h().resolve({ id: 'bot', connector: 'use::fast' }, root),
      codeAndMessage('CONNECTOR_NOT_FOUND', /^-c names connector "use::fast", but "fast" is not a role/),
    );
  });

  it('blames agent.yml when -c picks a role whose connector does not exist', async () => {
    const root = app({
      'assistants/bot/package.yao': '{ "connector": "fake.a" }',
      'agent/agent.yml': 'system:\n  light: fake.zzz\n',
    });
    await assert.rejects(
      h().resolve({ id: 'bot', connector: 'use::light' }, root),
      codeAndMessage('CONNECTOR_NOT_FOUND', /agent\.yml:2:10 names connector "fake\.zzz"/),
    );
  });

  it('lets the Create hook win over every other link, roles included', async () => {
    const root = app({
      'assistants/bot/package.yao': '{ "connector": "fake.a" }',
      'agent/agent.yml': AGENT_YML,
      'assistants/bot/src/index.ts': `export function Create(ctx: any, messages: any[], options: any) {
        return { connector: ctx.metadata.hook_connector ?? 'fake.d' };
      }`,
    });
    const hook = await used(root, { connector: 'fake.b' }, 'fake.c');
    assert.deepEqual([hook.content, hook.from], ['model=d', 'Create hook']);
    const role = await used(root, { metadata: { hook_connector: 'use::light' } }, 'fake.a');
    assert.deepEqual([role.content, role.from], ['model=c', 'Create hook "use::light" → agent.yml system.light']);
  });

  it('falls back to the first capable connector: tool_calls declared first, else the first chat connector by id', async () => {
    const capable = app({
      'assistants/bot/package.yao': '{}',
      'connectors/zz/tools.conn.yao': JSON.stringify(
        openaiConnector(fake.url, { model: 'tools', capabilities: { tool_calls: true } }),
      ),
    });
    const result = await used(capable);
    assert.deepEqual(
      [result.content, result.connector, result.from],
      ['model=tools', 'zz.tools', 'first capable connector'],
    );

    const plain = writeTree({
      'app.yao': '{}',
      'assistants/bot/package.yao': '{}',
      'assistants/bot/prompts.yml': PROMPTS,
      'connectors/a/db.conn.yao': '{ "type": "sqlite", "options": {} }',
      'connectors/m/second.conn.yao': JSON.stringify(openaiConnector(fake.url, { model: 'second' })),
      'connectors/k/first.conn.yao': JSON.stringify(openaiConnector(fake.url, { model: 'first' })),
    });
    assert.equal((await used(plain)).content, 'model=first', 'in id order, skipping the sqlite connector');
  });

  it('makes a case error mentioning agent.yml when no link yields a connector', async () => {
    const root = writeTree({
      'app.yao': '{}',
      'assistants/bot/package.yao': '{}',
      'assistants/bot/prompts.yml': PROMPTS,
    });
    const agent = await h().resolve({ id: 'bot' }, root);
    assert.equal(agent?.connector, undefined);
    await assert.rejects(
      ask(agent, 'hi'),
      codeAndMessage(
        'CONNECTOR_NOT_FOUND',
        /has prompts but no connector/,
        /system\.default in .*agent[/\\]agent\.yml/,
        /-c <connector>/,
      ),
    );
  });

  it('stops the run when package.yao names a role agent.yml does not know', async () => {
    const root = app({ 'assistants/bot/package.yao': '{ "connector": "use::fast" }', 'agent/agent.yml': AGENT_YML });
    await assert.rejects(
      h().resolve({ id: 'bot' }, root),
      codeAndMessage(
        'CONNECTOR_NOT_FOUND',
        /bot[/\\]package\.yao names connector "use::fast", but "fast" is not a role of .*agent[/\\]agent\.yml; the roles are default, light, vision, audio, heavy/,
      ),
    );
  });

  it('stops the run when a role and system.default are both unset, or agent.yml is missing', async () => {
    const unset = app({
      'assistants/bot/package.yao': '{ "connector": "use::heavy" }',
      'agent/agent.yml': 'system:\n  light: fake.c\n',
    });
    await assert.rejects(
      h().resolve({ id: 'bot' }, unset),
      codeAndMessage(
        'CONNECTOR_NOT_FOUND',
        /package\.yao names connector "use::heavy", but .*agent[/\\]agent\.yml sets neither system\.heavy nor system\.default/,
      ),
    );
    const missing = app({ 'assistants/bot/package.yao': '{ "connector": "use::light" }' });
    await assert.rejects(
      h().resolve({ id: 'bot' }, missing),
      codeAndMessage('CONNECTOR_NOT_FOUND', /"use::light", but there is no .*agent[/\\]agent\.yml/),
    );
  });

  it('blames agent.yml, with its line, for a default connector that does not exist', async () => {
    const root = app({
      'assistants/bot/package.yao': '{}',
      'agent/agent.yml': '# roles\nsystem:\n  default: fake.zzz\n',
    });
    await assert.rejects(
      h().resolve({ id: 'bot' }, root),
      codeAndMessage(
        'CONNECTOR_NOT_FOUND',
        /agent\.yml:3:12 names connector "fake\.zzz", which is not defined \(known: fake\.a/,
      ),
    );
  });

  it('rejects a malformed agent.yml before any case, naming file:line:col', async () => {
    const broken = app({
      'assistants/bot/package.yao': '{ "connector": "fake.a" }',
      'agent/agent.yml': 'system:\n  default: [fake.a\n',
    });
    await assert.rejects(h().resolve({ id: 'bot' }, broken), (error: Error & { code?: string; where?: string }) => {
      assert.equal(error.code, 'CONFIG_INVALID');
      assert.match(error.message, /agent[/\\]agent\.yml:\d+:\d+: invalid YAML/);
      assert.match(error.where ?? '', /agent\.yml:\d+:\d+$/);
      return true;
    });
    const wrongType = app({ 'assistants/bot/package.yao': '{}', 'agent/agent.yml': 'system:\n  default: 42\n' });
    await assert.rejects(
      h().resolve({ id: 'bot' }, wrongType),
      codeAndMessage('CONFIG_INVALID', /agent\.yml:2:12: system\.default must be a connector id/),
    );
    const notAMap = app({ 'assistants/bot/package.yao': '{}', 'agent/agent.yml': 'system: fake.a\n' });
    await assert.rejects(
      h().resolve({ id: 'bot' }, notAMap),
      codeAndMessage('CONFIG_INVALID', /agent\.yml:1:9: "system" must map roles to connector ids/),
    );
  });

  it('ignores agent.yml keys outside the roles, and roles for an assistant that never calls the LLM', async () => {
    const root = writeTree({
      'app.yao': '{}',
      'agent/agent.yml': 'uses:\n  default: mohe\nstore:\n  connector: default\nsystem:\n  keyword: whatever\n',
      'assistants/bot/package.yao': '{ "connector": "use::fast" }',
      'assistants/bot/src/index.ts': 'export function Next() { return { data: "from hook" }; }',
    });
    const agent = await h().resolve({ id: 'bot' }, root);
    assert.equal(agent?.connector, undefined);
    assert.equal((await ask(agent, 'hi')).content, 'from hook');
  });

  it('reads agent.yml from the app root, whichever assistant asks', async () => {
    const root = app({
      'assistants/team/bot/package.yao': '{ "connector": "use::light" }',
      'assistants/team/bot/prompts.yml': PROMPTS,
      'agent/agent.yml': AGENT_YML,
    });
    const agent = await h().resolve({ path: join('assistants', 'team', 'bot') }, root);
    assert.equal((await ask(agent, 'hi')).content, 'model=c');
  });
});
