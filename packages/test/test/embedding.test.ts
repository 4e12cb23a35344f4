import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createDefaultKernel,
  createRunPlan,
  defineAgent,
  defineConfig,
  outcomeExitCode,
  runCli,
} from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'agentest-embed-'));
writeFileSync(
  join(dir, 'inputs.jsonl'),
  '{"id": "A", "input": "hi", "expected": "HI"}\n{"id": "B", "input": "yo", "assert": {"type": "contains", "value": "YO"}}\n',
);

test('the README embedding: a config agent, the default plugins, a JSON report', async () => {
  const kernel = await createDefaultKernel(
    defineConfig({
      agents: {
        shout: defineAgent({
          run: async (messages) => ({ content: String(messages.at(-1)?.content).toUpperCase(), text: '' }),
        }),
      },
      reporters: [['json', { output: join(dir, 'report.json') }]],
    }),
  );
  const outcome = await kernel.run(createRunPlan({ input: join(dir, 'inputs.jsonl'), agent: 'shout', parallel: 4 }));
  assert.equal(outcomeExitCode(outcome), 0);
  assert.equal(outcome.summary.passed, 2);
  assert.equal(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).summary.passed, 2);
});

test('runCli runs the command line in-process and returns the exit code', async () => {
  let out = '';
  const stdout = { write: (s: string) => ((out += s), true) } as unknown as NodeJS.WritableStream;
  const code = await runCli(['test', '-i', 'inputs.jsonl', '-n', 'echo', '--no-jsonl'], {
    cwd: dir,
    stdout,
    stderr: stdout,
  });
  assert.equal(code, 1);
  assert.match(out, /► \[A\] hi {2}FAILED/);
});
