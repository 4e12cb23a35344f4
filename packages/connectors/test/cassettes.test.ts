import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { registerSecret } from '@agentest/kernel';
import { startFakeLlm } from '@agentest/fake-llm';
import { createChatClient } from '../src/index.js';
import { anthropicConfig, openaiConfig } from './helpers.js';
import { runCases, suiteDir } from './cassette-run.js';

const cassette = (dir: string, id: string) => join(dir, '__cassettes__', 'suite', `${id}.jsonl`);
const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
const outputs = (run: { results: { id: string; output?: unknown; status: string }[] }) =>
  run.results.map((r) => [r.id, r.status, r.output]);

const script = {
  rules: [
    { match: /weather/i, reply: 'Sunny in Paris.' },
    { match: /^judge:/i, reply: 'PASS: fine' },
  ],
  default: 'I do not know.',
};

describe('cassettes at the connector boundary', () => {
  for (const [type, stream] of [
    ['openai', false],
    ['openai', true],
    ['anthropic', true],
  ] as const) {
    it(`${type} ${stream ? 'streamed' : 'JSON'}: recorded against the server, replayed with it stopped, same outputs`, async () => {
      const dir = suiteDir();
      const llm = await startFakeLlm(script);
      const config = (type === 'openai' ? openaiConfig : anthropicConfig)(llm, { stream });
      const client = createChatClient('fake', config, {});
      const cases = [
        { id: 'weather', text: 'What is the weather?' },
        { id: 'other', text: 'Anything else?' },
      ];
      let recorded;
      try {
        recorded = await runCases(client, dir, cases, { cassettes: { mode: 'record', ci: false } });
      } finally {
        await llm.close();
      }
      const entries = lines(cassette(dir, 'weather'));
      assert.equal(entries.length, 1);
      assert.deepEqual(
        [entries[0].kind, entries[0].role, entries[0].run, entries[0].call, entries[0].source],
        ['model', 'agent', 1, 1, 'fake'],
      );
      assert.equal(entries[0].request.stream, undefined, 'volatile fields are not part of the request');
      if (stream) assert.ok(entries[0].chunks.length > 1 && entries[0].chunks.every((c: { t: number }) => c.t >= 0));
      else assert.ok(entries[0].reply.choices);

      const replayed = await runCases(client, dir, cases, { cassettes: { mode: 'replay', ci: false } });
      assert.deepEqual(outputs(replayed), outputs(recorded));
      assert.deepEqual(outputs(replayed), [
        ['weather', 'passed', 'Sunny in Paris.'],
        ['other', 'passed', 'I do not know.'],
      ]);
      assert.equal(replayed.summary.usage!.replayed, 2);
      assert.equal(replayed.summary.usage!.total_tokens, recorded.summary.usage!.total_tokens);
    });
  }

  it('--runs 3 against a model that answers differently each time replays the three answers in order', async () => {
    const dir = suiteDir();
    let n = 0;
    const llm = await startFakeLlm({ rules: [{ reply: () => `answer ${++n}` }] });
    const client = createChatClient('fake', openaiConfig(llm), {});
    const cases = [{ id: 'flaky', text: 'Roll the dice' }];
    try {
      await runCases(client, dir, cases, { cassettes: { mode: 'record', ci: false }, runs: 3 });
    } finally {
      await llm.close();
    }
    const replayed = await runCases(client, dir, cases, { cassettes: { mode: 'replay', ci: false }, runs: 3 });
    const runs = replayed.results[0]!.runs.map((r) => r.output);
    assert.deepEqual(runs, ['answer 1', 'answer 2', 'answer 3']);
    assert.deepEqual(
      lines(cassette(dir, 'flaky')).map((e) => e.run),
      [1, 2, 3],
    );
  });

  it('a changed prompt under lockdown (CI set, cassettes present) fails its case, names it and shows the difference, without a call', async () => {
    const dir = suiteDir();
    const llm = await startFakeLlm(script);
    const client = createChatClient('fake', openaiConfig(llm), {});
    await runCases(client, dir, [{ id: 'weather', text: 'What is the weather?' }], {
      cassettes: { mode: 'record', ci: false },
    });
    const before = llm.requests.length;
    try {
      for (const mode of [undefined, 'auto'] as const) {
        const run = await runCases(client, dir, [{ id: 'weather', text: 'What is the weather in Rome?' }], {
          cassettes: { ...(mode ? { mode } : {}), ci: true },
        });
        const result = run.results[0]!;
        assert.equal(result.status, 'error');
        assert.match(result.error!, /case "weather": no recording for its agent model call 1 of run 1/);
        assert.match(result.error!, /lockdown: CI is set and the suite has cassettes/);
        assert.match(
          result.error!,
          /request \$\.messages\[0\]\.content: "What is the weather\?" → "What is the weather in Rome\?"/,
        );
        assert.equal(run.summary.errors, run.summary.total);
      }
      assert.equal(llm.requests.length, before, 'lockdown never calls the model');
    } finally {
      await llm.close();
    }
  });

  it('with CI set and no cassettes, calls go to the model (lockdown needs cassettes)', async () => {
    const dir = suiteDir();
    const llm = await startFakeLlm(script);
    try {
      const client = createChatClient('fake', openaiConfig(llm), {});
      const run = await runCases(client, dir, [{ id: 'weather', text: 'What is the weather?' }], {
        cassettes: { ci: true },
      });
      assert.equal(run.results[0]!.status, 'passed');
      assert.equal(llm.requests.length, 1);
      assert.equal(existsSync(join(dir, '__cassettes__')), false);
    } finally {
      await llm.close();
    }
  });

  it('auto replays what is recorded and records what is not', async () => {
    const dir = suiteDir();
    const llm = await startFakeLlm(script);
    try {
      const client = createChatClient('fake', openaiConfig(llm), {});
      await runCases(client, dir, [{ id: 'weather', text: 'What is the weather?' }], {
        cassettes: { mode: 'record', ci: false },
      });
      const cases = [
        { id: 'weather', text: 'What is the weather?' },
        { id: 'new', text: 'Something new' },
      ];
      const run = await runCases(client, dir, cases, { cassettes: { mode: 'auto', ci: false } });
      assert.deepEqual(outputs(run), [
        ['weather', 'passed', 'Sunny in Paris.'],
        ['new', 'passed', 'I do not know.'],
      ]);
      assert.equal(llm.requests.length, 2, 'one call recorded first, one recorded now');
      assert.equal(lines(cassette(dir, 'new')).length, 1);
    } finally {
      await llm.close();
    }
  });

  it('concurrent calls replay whatever order they start in', async () => {
    const dir = suiteDir();
    const llm = await startFakeLlm({ rules: [{ reply: ({ text }) => `echo ${text}` }] });
    const client = createChatClient('fake', openaiConfig(llm), {});
    const both = (first: string, second: string) => async (c: typeof client, _m: unknown, signal: AbortSignal) => {
      const replies = await Promise.all(
        [first, second].map((text) => c.chat({ messages: [{ role: 'user', content: text }] }, signal)),
      );
      return { content: replies.map((r) => r.text).sort(), text: '' };
    };
    const cases = [{ id: 'pair', text: 'x' }];
    try {
      await runCases(client, dir, cases, { cassettes: { mode: 'record', ci: false }, agent: both('one', 'two') });
    } finally {
      await llm.close();
    }
    const run = await runCases(client, dir, cases, {
      cassettes: { mode: 'replay', ci: false },
      agent: both('two', 'one'),
    });
    assert.deepEqual(outputs(run), [['pair', 'passed', ['echo one', 'echo two']]]);
  });

  it("judge calls are keyed apart from the agent's", async () => {
    const dir = suiteDir();
    const llm = await startFakeLlm(script);
    const client = createChatClient('fake', openaiConfig(llm), {});
    const cases = [{ id: 'judged', text: 'What is the weather?', judge: true }];
    try {
      await runCases(client, dir, cases, { cassettes: { mode: 'record', ci: false } });
    } finally {
      await llm.close();
    }
    assert.deepEqual(
      lines(cassette(dir, 'judged')).map((e) => [e.role, e.call]),
      [
        ['agent', 1],
        ['judge', 1],
      ],
    );
    const replayed = await runCases(client, dir, cases, { cassettes: { mode: 'replay', ci: false } });
    assert.equal(replayed.results[0]!.status, 'passed');
    assert.equal(replayed.summary.usage!.calls, 2);
  });

  it('a call whose reply carries a configured secret fails its case and nothing of the case is written', async () => {
    const dir = suiteDir();
    const secret = 'sk-cassette-test-secret-0123456789';
    registerSecret(secret);
    const llm = await startFakeLlm({
      rules: [{ match: /key/, reply: `Your key is ${secret}` }],
      default: 'fine',
    });
    try {
      const client = createChatClient('fake', openaiConfig(llm), {});
      const run = await runCases(
        client,
        dir,
        [
          { id: 'leak', text: 'What is my key?' },
          { id: 'clean', text: 'Hello' },
        ],
        { cassettes: { mode: 'record', ci: false } },
      );
      const leak = run.results.find((r) => r.id === 'leak')!;
      assert.equal(leak.status, 'error');
      assert.match(
        leak.error!,
        /case "leak": its agent model call 1 of run 1 \(fake\) carries a configured secret in its reply/,
      );
      assert.equal(existsSync(cassette(dir, 'leak')), false);
      assert.ok(existsSync(cassette(dir, 'clean')));
      const written = readdirSync(join(dir, '__cassettes__', 'suite')).map((f) =>
        readFileSync(join(dir, '__cassettes__', 'suite', f), 'utf8'),
      );
      assert.ok(written.every((text) => !text.includes(secret)));
    } finally {
      await llm.close();
    }
  });

  it("a call whose request carries the connector's key is not written either", async () => {
    const dir = suiteDir();
    const llm = await startFakeLlm(script);
    try {
      const client = createChatClient('fake', openaiConfig(llm, { key: 'sk-connector-key-42' }), {});
      const run = await runCases(client, dir, [{ id: 'pasted', text: 'my key is sk-connector-key-42' }], {
        cassettes: { mode: 'record', ci: false },
      });
      assert.equal(run.results[0]!.status, 'error');
      assert.match(run.results[0]!.error!, /carries a configured secret in its request/);
      assert.equal(existsSync(join(dir, '__cassettes__')), false);
    } finally {
      await llm.close();
    }
  });

  it('--replay-timing replays streamed chunks at their recorded offsets', async () => {
    const dir = suiteDir();
    const llm = await startFakeLlm({ ...script, latencyMs: 150 });
    const client = createChatClient('fake', openaiConfig(llm, { stream: true }), {});
    const cases = [{ id: 'weather', text: 'What is the weather?' }];
    try {
      await runCases(client, dir, cases, { cassettes: { mode: 'record', ci: false } });
    } finally {
      await llm.close();
    }
    const last = Math.max(...lines(cassette(dir, 'weather'))[0].chunks.map((c: { t: number }) => c.t));
    assert.ok(last >= 100, `the first chunk came after the server's latency (${last} ms)`);
    const started = performance.now();
    const run = await runCases(client, dir, cases, { cassettes: { mode: 'replay', ci: false, timing: true } });
    assert.equal(run.results[0]!.output, 'Sunny in Paris.');
    // Less a timer's whole-millisecond rounding (up to 2 ms early: libuv's loop clock may lag a tick behind).
    assert.ok(performance.now() - started >= last - 2, 'the replay took at least the recorded time');
  });
});
