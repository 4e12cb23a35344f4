import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { startFakeLlm, type FakeLlm, type RecordedRequest } from '@agentest/fake-llm';
import type { Message } from '@agentest/kernel';
import { ask, harness, openaiConnector, writeTree } from './helpers.js';

const SERVER = fileURLToPath(new URL('./fixtures/notes-mcp-server.mjs', import.meta.url));

interface ChatBody {
  messages: Message[];
  tools?: Array<{ function: { name: string; description: string; parameters: Record<string, unknown> } }>;
}
const body = (request: RecordedRequest) => request.body as ChatBody;
const toolMessages = (request: RecordedRequest) => body(request).messages.filter((m) => m.role === 'tool');

let fake: FakeLlm;
before(async () => {
  fake = await startFakeLlm({
    rules: [
      {
        match: ({ request }) => toolMessages(request).length > 0,
        reply: ({ request }) =>
          `final: ${toolMessages(request)
            .map((m) => m.content)
            .join(' | ')}`,
      },
      { match: /milk/, reply: { text: '', toolCalls: [{ name: 'notes__lookup', arguments: { topic: 'milk' } }] } },
      {
        match: /missing/,
        reply: { text: '', toolCalls: [{ name: 'notes__lookup', arguments: { topic: 'missing' } }] },
      },
    ],
  });
});
after(() => fake.close());

function app(server: Record<string, unknown>) {
  return writeTree({
    'app.yao': '{}',
    'connectors/fake.conn.yao': openaiConnector(fake.url),
    'mcps/notes.mcp.yao': server,
    'assistants/helper/package.yao': {
      connector: 'fake',
      mcp: { servers: [{ server_id: 'notes', tools: ['lookup'] }] },
    },
    'assistants/helper/prompts.yml': '- role: system\n  content: Use your notes.\n',
  });
}

describe('MCP servers outside agentest (stdio through the MCP SDK)', () => {
  it("lists the server's tools for the model and calls them, passing $ENV values to the server", async () => {
    const root = app({
      transport: 'stdio',
      command: process.execPath,
      args: [SERVER],
      env: { NOTE_PREFIX: '$ENV.PREFIX' },
    });
    const agent = await harness({ env: { FAKE_KEY: 'k', PREFIX: 'please ' } }).resolve({ id: 'helper' }, root);
    const from = fake.requests.length;
    const reply = await ask(agent, 'where is the milk?');
    assert.deepEqual(
      body(fake.requests[from]!).tools?.map((t) => [
        t.function.name,
        t.function.description,
        t.function.parameters.required,
      ]),
      [['notes__lookup', 'Finds the note about a topic', ['topic']]],
    );
    assert.equal(reply.content, 'final: {"topic":"milk","note":"please remember milk"}');
    assert.deepEqual(reply.toolCalls?.[0]?.result, { topic: 'milk', note: 'please remember milk' });
    assert.equal(reply.toolCalls?.[0]?.server, 'notes');
  });

  it("records an isError result as the call's error and tells the model", async () => {
    const root = app({ transport: 'stdio', command: process.execPath, arguments: [SERVER] });
    const reply = await ask(
      await harness({ env: { FAKE_KEY: 'k' } }).resolve({ id: 'helper' }, root),
      'anything missing?',
    );
    assert.equal(reply.toolCalls?.[0]?.error, 'Error executing tool lookup: no note about missing');
    assert.equal(reply.content, 'final: Error: Error executing tool lookup: no note about missing');
  });

  it('stops the run when the server cannot start, naming its file and showing its stderr', async () => {
    const root = app({
      transport: 'stdio',
      command: process.execPath,
      args: ['-e', 'console.error("notes: no database"); process.exit(3)'],
    });
    await assert.rejects(
      harness({ env: { FAKE_KEY: 'k' } }).resolve({ id: 'helper' }, root),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, 'CONFIG_INVALID');
        assert.match(
          error.message,
          /notes\.mcp\.yao: MCP server "notes" could not be reached \(starting ".*node.*"\): .*\n/,
        );
        assert.match(error.message, /notes: no database/);
        return true;
      },
    );
  });
});
