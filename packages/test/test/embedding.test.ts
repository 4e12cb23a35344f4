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

test('config reporters get what the CLI gives its reporters: cwd, verbose and colour', async () => {
  const given: Record<string, unknown>[] = [];
  (globalThis as { givenOptions?: unknown }).givenOptions = given;
  const file = join(dir, 'recording-reporter.mjs');
  writeFileSync(file, `export default (o) => (globalThis.givenOptions.push(o), { name: 'recording', apply() {} });\n`);
  const recording = (options: Record<string, unknown>) => (given.push(options), { name: 'inline', apply() {} });
  const config = defineConfig({ reporters: [recording, [file, { own: 1 }]] });
  await createDefaultKernel(config, { cwd: dir, verbose: true, color: false });
  await createDefaultKernel(config, { cwd: dir });
  assert.deepEqual(given, [
    { cwd: dir, verbose: true, color: false },
    { cwd: dir, verbose: true, color: false, own: 1 },
    { cwd: dir, verbose: false },
    { cwd: dir, verbose: false, own: 1 },
  ]);
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
