import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mulberry32 } from '@agentest/common';
import { perturb, PERTURBATIONS } from '../src/index.js';

const TEXTS = ['say hello please', 'what is the capital', 'SHOUTING ALREADY', 'shut up', 'hello', 'Mixed Case text'];
const SEEDS = Array.from({ length: 200 }, (_, i) => i + 1);

test('every perturbation changes the text, whatever the draws', () => {
  for (const kind of PERTURBATIONS)
    for (const text of TEXTS)
      for (const seed of SEEDS)
        assert.notEqual(
          perturb(text, kind, mulberry32(seed)),
          text,
          `${kind} of ${JSON.stringify(text)}, seed ${seed}`,
        );
});

test('a case variant changes letter case only, even of a text that is all one case already', () => {
  for (const text of TEXTS)
    for (const seed of SEEDS) {
      const variant = perturb(text, 'case', mulberry32(seed));
      assert.notEqual(variant, text);
      assert.equal(
        variant.toLowerCase(),
        text.toLowerCase(),
        `${JSON.stringify(variant)} from ${JSON.stringify(text)}`,
      );
    }
});

test('a look-alike variant swaps letters for look-alikes, picking words that have such letters', () => {
  for (const seed of SEEDS) {
    // "shut" has no letter with a look-alike: "up" or "capital" (p, a, i) is the word that changes.
    const variant = perturb('shut up capital', 'lookalikes', mulberry32(seed));
    assert.ok(variant.startsWith('shut '), variant);
    assert.notEqual(variant, 'shut up capital');
    assert.equal(variant.length, 'shut up capital'.length);
  }
});
