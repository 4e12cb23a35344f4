import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentest, fixture, jsonl, readJsonl } from './helpers.js';

/**
 * An agent slow enough to be interrupted mid-run (it honours the abort signal). The first eight cases answer in
 * 150 ms, the rest in 2 s: the signal goes out after the fourth result, and however late a busy machine lets the
 * test see it, the run is still far from its end (the remaining cases need 26 s), while a first SIGINT waits at
 * most 2 s for the cases it lets finish.
 */
const SLOW = `export default { agents: { slow: { run: (messages, ctx, signal) => new Promise((resolve, reject) => {
  const ms = Number(String(messages.at(-1).content).split(' ')[1]) < 8 ? 150 : 2000;
  const timer = setTimeout(() => resolve({ content: 'done', text: 'done' }), ms);
  signal.addEventListener('abort', () => { clearTimeout(timer); reject(signal.reason); });
}) } } };`;
const CASES = jsonl(
  Array.from({ length: 60 }, (_, i) => ({ id: `C${String(i).padStart(2, '0')}`, input: `case ${i}` })),
);

/** Spawns a run and sends `signals` once the JSONL file holds at least `after` results. */
function interruptedRun(signals: NodeJS.Signals[], after: number) {
  const dir = fixture({ 'agentest.config.mjs': SLOW, 'inputs.jsonl': CASES });
  const out = join(dir, 'out.jsonl');
  const run = agentest(['test', '-i', 'inputs.jsonl', '-n', 'slow', '--parallel', '4', '-o', 'out.jsonl'], {
    cwd: dir,
    onSpawn(child) {
      const poll = setInterval(() => {
        const text = existsSync(out) ? readFileSync(out, 'utf8') : '';
        if ((text.match(/"type":"result"/g) ?? []).length < after) return;
        clearInterval(poll);
        for (const signal of signals) child.kill(signal);
      }, 20);
      child.on('close', () => clearInterval(poll));
    },
  });
  return { run, out };
}

test('SIGINT with --parallel 4: running cases finish, the JSONL ends in an interrupted summary, exit 130', async () => {
  const { run, out } = interruptedRun(['SIGINT'], 4);
  const result = await run;
  assert.equal(result.code, 130, result.stderr);
  const events = readJsonl(readFileSync(out, 'utf8'));
  const summary = events.at(-1)!;
  assert.equal(summary.type, 'summary');
  assert.equal(summary.interrupted, true);
  const results = events.filter((e) => e.type === 'result');
  assert.ok(results.length >= 4 && results.length < 60, `${results.length} cases finished`);
  assert.ok(
    results.every((r) => r.status === 'passed'),
    'cases running at the interrupt were let finish',
  );
  assert.equal(summary.total, results.length);
  assert.match(result.stdout, /⚠ RUN INTERRUPTED/);
});

test('SIGTERM aborts the running cases at once and still leaves a valid JSONL', async () => {
  const { run, out } = interruptedRun(['SIGTERM'], 4);
  const result = await run;
  assert.equal(result.code, 130, result.stderr);
  const events = readJsonl(readFileSync(out, 'utf8'));
  assert.equal(events.at(-1)!.type, 'summary');
  assert.equal(events.at(-1)!.interrupted, true);
});
