import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CaseVariance } from '@agentest/kernel';
import { judgeLine, varianceLine } from '../src/index.js';

const variance = (judge: Partial<CaseVariance['judge']>): CaseVariance => ({
  agent: { runs: 3, passed: 2, pass_rate: 2 / 3 },
  judge: { judgements: 4, samples: 11, agreeing: 7, agreement: 7 / 11, split: 0, no_verdict: 0, ...judge },
});

test("a judged case's variance reads as one line: the agent's runs, the judge's samples, splits and ties named", () => {
  assert.equal(
    varianceLine(variance({ split: 2, no_verdict: 1 })),
    'agent: passed 2/3 runs · judge: 7/11 samples agreed with their majority (2 of 4 judgements split, 1 of 4 without a verdict)',
  );
  assert.equal(varianceLine(variance({})), 'agent: passed 2/3 runs · judge: 7/11 samples agreed with their majority');
});

test('a judgement reads as its agreement, then the model, temperature and seed when known, then the prompt hash', () => {
  const judge = { use: 'agents:x', agreement: '2/3', prompt_hash: 'sha256:ab' };
  assert.equal(judgeLine(judge), 'judge agents:x: 2/3 · sha256:ab');
  assert.equal(
    judgeLine({ ...judge, model: 'gpt-4o', temperature: 0, seed: 42 }),
    'judge agents:x: 2/3 · gpt-4o · temperature 0 · seed 42 · sha256:ab',
  );
});
