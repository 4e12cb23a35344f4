import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { fixture } from './helpers.js';
import { agentestInProcess } from './in-process.js';

// The plugin examples of docs/plugins.md: the page shows the files as they are, and the files work.

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const EXAMPLES = join(ROOT, 'examples/plugins');
const FILES = ['resolver.ts', 'loader.ts', 'assertion.ts', 'executor.ts', 'reporter.ts', 'agentest.config.ts'];

test('docs/plugins.md shows every example file exactly as it is in examples/plugins', () => {
  const doc = readFileSync(join(ROOT, 'docs/plugins.md'), 'utf8');
  const shown = new Map(
    [...doc.matchAll(/<!-- example: (\S+) -->\n\n```ts\n([\s\S]*?)```\n/g)].map((m) => [m[1]!, m[2]!]),
  );
  assert.deepEqual(
    [...shown.keys()],
    FILES.map((file) => `examples/plugins/${file}`),
  );
  for (const [path, code] of shown) assert.equal(code, readFileSync(join(ROOT, path), 'utf8'), `${path} differs`);
});

test('the examples run with the CLI: the CSV loader, the reverse resolver, the executor, max_words and the reporter', async () => {
  const output = join(EXAMPLES, 'output');
  rmSync(output, { recursive: true, force: true });
  const run = await agentestInProcess(['test', '--no-jsonl'], { cwd: EXAMPLES });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  // The loader made the CSV rows cases; the resolver's agent answered them reversed (`expected` is equality).
  assert.equal(readFileSync(join(output, 'greetings.csv.txt'), 'utf8'), 'passed  G1\npassed  G2\n2/2 passed\n');
  // C1 passes only if the executor sent both turns ("see you" reversed is the last reply) and max_words
  // judged it; C2 passes only if max_words failed a four-word output against 3, which negate turns around.
  assert.equal(readFileSync(join(output, 'conversations.jsonl.txt'), 'utf8'), 'passed  C1\npassed  C2\n2/2 passed\n');
  assert.match(run.stdout, /Turns +2\n/, "the executor's metric is reported");
  rmSync(output, { recursive: true, force: true });
});

test('max_words refuses a malformed assertion before the agent is called, and fails a long output', async () => {
  // Suites outside the folder, run with its config (a config is otherwise looked for from the suite's folder).
  const suites = fixture({
    'malformed.jsonl': '{"id":"X","input":"a b","assert":[{"type":"max_words","value":"3"}]}\n',
    'long.jsonl': '{"id":"L","input":"a b c","assert":[{"type":"max_words","value":2}]}\n',
  });
  const malformed = await agentestInProcess(
    ['test', '--no-jsonl', '--config', 'agentest.config.ts', '-n', 'reverse', '-i', join(suites, 'malformed.jsonl')],
    { cwd: EXAMPLES },
  );
  assert.equal(malformed.code, 2, malformed.stderr);
  assert.match(malformed.stderr, /ASSERTION_INVALID.*max_words needs a whole number "value" of at least 0, got "3"/);

  const long = await agentestInProcess(
    ['test', '--no-jsonl', '--config', 'agentest.config.ts', '-n', 'reverse', '-i', join(suites, 'long.jsonl')],
    {
      cwd: EXAMPLES,
    },
  );
  assert.equal(long.code, 1, long.stderr);
  assert.match(long.stdout, /3 words, more than 2/);
  rmSync(join(EXAMPLES, 'output'), { recursive: true, force: true });
});
