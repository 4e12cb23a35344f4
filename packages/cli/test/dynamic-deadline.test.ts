import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agentestInProcess as agentest } from './in-process.js';
import { HAPPY, ORDER_CHECKPOINTS, project, report, SIMULATOR } from './dynamic-fixture.js';

test('a dynamic case stopped by its deadline keeps the conversation so far: its turns, count and last reply', async () => {
  const dir = project({ ...HAPPY, 3: 'HANG' }, [
    {
      id: 'stuck',
      input: 'Hi, I would like a coffee',
      simulator: SIMULATOR,
      checkpoints: ORDER_CHECKPOINTS,
      max_turns: 8,
      timeout: '1s',
    },
  ]);
  const run = await agentest(['test', '-i', 'cases.jsonl', '-n', 'shop', '-o', 'out.json'], { cwd: dir });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  const [result] = report(dir).results;
  const dynamic = result!.details.dynamic;
  assert.equal(result!.status, 'timeout');
  assert.equal(dynamic.end_reason, undefined, 'no reason of its own: the deadline stopped it');
  assert.equal(dynamic.total_turns, 2, 'two agent replies before the simulator hung on turn 3');
  assert.equal(result!.output, 'What size would you like?', 'the output is the last reply, as for any other end');
  const cut = dynamic.turns.at(-1);
  assert.equal(cut.turn, 3);
  assert.equal(cut.error, 'stopped at the deadline (waiting for the simulator)');
  assert.ok(cut.duration_ms > 0, 'the cut turn is timed up to the deadline');
  assert.match(run.stdout, /2 turns \(max 8\), stopped at the deadline/);
});
