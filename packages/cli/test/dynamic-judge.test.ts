import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fixture, jsonl } from './helpers.js';
import { agentestInProcess as agentest } from './in-process.js';

test("a checkpoint's judge gets that turn's reply as output and null as input, as in Yao", async () => {
  const dir = fixture({
    'cases.jsonl': jsonl([
      {
        id: 'judged',
        input: 'Hi, I would like a coffee',
        simulator: { use: 'sim' },
        checkpoints: [
          { id: 'asked', assert: { type: 'contains', value: 'What' } },
          { id: 'polite', after: ['asked'], assert: { type: 'agent', use: 'agents:judge', value: 'is polite' } },
        ],
        max_turns: 3,
      },
    ]),
    'agentest.config.mjs': `
import { appendFileSync } from 'node:fs';
const say = (text) => ({ content: text, text });
export default {
  agents: {
    shop: { run: async (messages) => say(messages.length === 1 ? 'What would you like?' : 'A latte, coming up') },
    sim: { run: async () => say('{"message": "A latte please"}') },
    judge: {
      async run(messages) {
        appendFileSync(new URL('./payloads.jsonl', import.meta.url), messages.at(-1).content + '\\n');
        return say('{"passed": true, "reason": "polite"}');
      },
    },
  },
};`,
  });
  const run = await agentest(['test', '-i', 'cases.jsonl', '-n', 'shop'], { cwd: dir });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const payloads = readFileSync(join(dir, 'payloads.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  assert.deepEqual(payloads, [{ criteria: 'is polite', input: null, output: 'What would you like?' }]);
});
