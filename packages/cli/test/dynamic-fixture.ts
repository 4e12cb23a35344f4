import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture, jsonl } from './helpers.js';

/**
 * A coffee shop (mock connector) and a scripted simulated user (an adapter that answers by turn
 * number and records every brief it receives in briefs.jsonl), as the dev app's dynamic example.
 */
const SHOP = {
  type: 'mock',
  options: {
    replies: [
      { match: 'coffee', reply: 'Hello! What would you like to order?' },
      { match: 'latte', reply: 'What size would you like?' },
      { match: 'medium', reply: 'Please confirm: one medium latte?' },
      { match: 'yes', reply: 'Thank you! Your order number is 42.' },
    ],
    default: 'Sorry?',
  },
};

/**
 * `script` maps a turn number to the simulator's reply text (JSON or prose); a missing turn means done,
 * `THROW` a failing simulator and `HANG` one that never answers.
 */
export function project(script: Record<number, string>, cases: object[], extra: Record<string, string> = {}): string {
  return fixture({
    'cases.jsonl': jsonl(cases),
    'agentest.config.mjs': `
import { appendFileSync } from 'node:fs';
const script = ${JSON.stringify(script)};
export default {
  connectors: { shop: ${JSON.stringify(SHOP)} },
  agents: {
    shop: { connector: 'shop' },
    sim: {
      async run(messages, ctx) {
        const brief = JSON.parse(messages[0].content);
        appendFileSync(new URL('./briefs.jsonl', import.meta.url), JSON.stringify({ chat_id: ctx.chat_id, count: messages.length, brief, raw: messages[0].content }) + '\\n');
        const text = script[brief.turn_number] ?? '{"goal_achieved": true}';
        if (text === 'THROW') throw new Error('simulator backend is down');
        if (text === 'HANG') return new Promise(() => {});
        return { content: text, text };
      },
    },
  },
};`,
    ...extra,
  });
}

export const ORDER_CHECKPOINTS = [
  { id: 'greeting', assert: { type: 'regex', value: '(?i)order' } },
  { id: 'ask_size', after: ['greeting'], assert: { type: 'regex', value: '(?i)size' } },
  { id: 'confirm', after: ['ask_size'], assert: { type: 'regex', value: '(?i)confirm' } },
];
export const SIMULATOR = {
  use: 'sim',
  options: { metadata: { persona: 'A customer', goal: 'Order a medium latte', style: 'terse' } },
};
export const HAPPY = {
  2: '{"message": "A latte please", "goal_achieved": false}',
  3: '```json\n{"message": "Medium, please"}\n```',
};

export interface Report {
  results: {
    id: string;
    status: string;
    input: unknown;
    error?: string;
    output?: unknown;
    details: { dynamic: Record<string, any> };
  }[];
}

export function report(dir: string): Report {
  return JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as Report;
}

export function briefs(dir: string): { chat_id: string; count: number; brief: Record<string, unknown>; raw: string }[] {
  return readFileSync(join(dir, 'briefs.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}
