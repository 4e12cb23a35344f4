import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { agentestInProcess as agentest } from './in-process.js';
import { briefs, HAPPY, ORDER_CHECKPOINTS, project, report, SIMULATOR } from './dynamic-fixture.js';

test('an unknown simulator stops the run before any case; --simulator is the default for cases that name none', async () => {
  const unknown = project(HAPPY, [
    { id: 'order', input: 'coffee', simulator: SIMULATOR, checkpoints: ORDER_CHECKPOINTS },
    { id: 'typo', input: 'coffee', simulator: { use: 'sin' }, checkpoints: ORDER_CHECKPOINTS },
  ]);
  let run = await agentest(['test', '-i', 'cases.jsonl', '-n', 'shop', '-o', 'out.json'], { cwd: unknown });
  assert.equal(run.code, 2);
  assert.match(
    run.stderr,
    /error\[HELPER_NOT_FOUND\]: cases\.jsonl:2: case "typo": the simulator "sin" cannot be found: could not find agent "sin" \(did you mean "sim"\?\)/,
  );
  assert.ok(!existsSync(join(unknown, 'briefs.jsonl')), 'no case ran: the simulator was never asked');
  assert.ok(!existsSync(join(unknown, 'out.json')), 'no report: nothing ran');

  const cases = [{ id: 'order', input: 'Hi, I would like a coffee', checkpoints: ORDER_CHECKPOINTS }];
  const bare = project(HAPPY, cases);
  run = await agentest(['test', '-i', 'cases.jsonl', '-n', 'shop'], { cwd: bare });
  assert.equal(run.code, 2);
  assert.match(
    run.stderr,
    /error\[INPUT_INVALID\]: cases\.jsonl:1: the case has "checkpoints" but no "simulator" — .* or pass --simulator <agent id>/,
  );
  run = await agentest(['test', '-i', 'cases.jsonl', '-n', 'shop', '--simulator', 'agents:sim', '-o', 'out.json'], {
    cwd: bare,
  });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.equal(report(bare).results[0]!.details.dynamic.simulator, 'sim');
  run = await agentest(['test', '-i', 'cases.jsonl', '-n', 'shop', '--simulator', 'agents:simm'], { cwd: bare });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /cases\.jsonl:1: case "order": the simulator "simm" \(--simulator\) cannot be found/);
});

const BASE = { id: 'c', input: 'coffee', simulator: { use: 'sim' } };
/** Lines the loader refuses, each with what its message says. */
const BAD_LINES: [object, RegExp][] = [
  [{ ...BASE, checkpoints: [{ id: 'a' }, { id: 'a' }] }, /checkpoints\[1\] repeats id "a"/],
  [
    { ...BASE, checkpoints: [{ id: 'a', after: ['greting'] }, { id: 'greeting' }] },
    /waits for unknown checkpoint "greting" \(did you mean "greeting"\?\)/,
  ],
  [
    {
      ...BASE,
      checkpoints: [
        { id: 'a', after: ['b'] },
        { id: 'b', after: ['a'] },
      ],
    },
    /in a cycle: a → b → a/,
  ],
  [
    { ...BASE, checkpoints: [{ id: 'a' }], max_turns: '10' },
    /field "max_turns" must be a whole number of at least 1, got "10"/,
  ],
  [
    { ...BASE, checkpoints: [{ id: 'a', assertion: { type: 'contains', value: 'x' } }] },
    /unknown field "checkpoints\[0\]\.assertion" \(did you mean "assert"\?\)/,
  ],
  [{ ...BASE, checkpoints: [{ id: 'a', required: 'false' }] }, /"checkpoints\[0\]\.required" must be true or false/],
  [
    { ...BASE, checkpoints: [{ id: 'a' }], assert: { type: 'contains', value: 'x' } },
    /field "assert" in a dynamic case/,
  ],
  [{ ...BASE, checkpoints: [] }, /field "checkpoints" must be a non-empty array/],
  [{ id: 'c', input: 'coffee', simulator: { use: 'sim' } }, /field "simulator" without "checkpoints"/],
  [
    { ...BASE, checkpoints: [{ id: 'a', assert: { type: 'regexx', value: 'x' } }] },
    /no plugin handles assertion type "regexx"/,
  ],
  [
    {
      ...BASE,
      checkpoints: [
        {
          id: 'a',
          assert: [
            { type: 'contains', value: 'x' },
            { type: 'regex', value: '(' },
          ],
        },
      ],
    },
    /checkpoints\[0\]\.assert\[1\] \(regex\)/,
  ],
];

test('dynamic fields are checked at load with file:line: ids, after, cycles, max_turns, stray assert', async () => {
  for (const [value, expected] of BAD_LINES) {
    const dir = project({}, [value]);
    const run = await agentest(['test', '-i', 'cases.jsonl', '-n', 'shop'], { cwd: dir });
    assert.equal(run.code, 2, `${JSON.stringify(value)}\n${run.stdout}${run.stderr}`);
    assert.match(run.stderr, /^error\[(INPUT_INVALID|NO_ASSERTION|ASSERTION_INVALID)\]: cases\.jsonl:1: /);
    assert.match(run.stderr, expected);
  }
});

test('without an input the simulator opens the conversation on turn 1, and its first message is the case input', async () => {
  const dir = project({ 1: '{"message": "Hi, I would like a coffee"}', ...HAPPY }, [
    { id: 'sim-first', simulator: SIMULATOR, checkpoints: ORDER_CHECKPOINTS },
  ]);
  const run = await agentest(['test', '-i', 'cases.jsonl', '-n', 'shop', '-o', 'out.json'], { cwd: dir });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const [result] = report(dir).results;
  const dynamic = result!.details.dynamic;
  assert.deepEqual(dynamic.turns[0].from, 'simulator');
  assert.deepEqual(briefs(dir)[0]!.brief.conversation, []);
  assert.equal(result!.input, 'Hi, I would like a coffee', "turn 1's message, as Yao reports it");
});

test("without an input, a case stopped by its deadline still reports the simulated user's first message as its input", async () => {
  const dir = project({ 1: '{"message": "Hi, I would like a coffee"}', 2: 'HANG' }, [
    { id: 'sim-first', simulator: SIMULATOR, checkpoints: ORDER_CHECKPOINTS, timeout: '1s' },
  ]);
  const run = await agentest(['test', '-i', 'cases.jsonl', '-n', 'shop', '-o', 'out.json'], { cwd: dir });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  const [result] = report(dir).results;
  assert.equal(result!.status, 'timeout');
  assert.equal(result!.input, 'Hi, I would like a coffee');
});

test('a simulated user who fails on turn 1 leaves a case without an input with input null', async () => {
  const dir = project({ 1: 'THROW' }, [{ id: 'sim-first', simulator: SIMULATOR, checkpoints: ORDER_CHECKPOINTS }]);
  await agentest(['test', '-i', 'cases.jsonl', '-n', 'shop', '-o', 'out.json'], { cwd: dir });
  const [result] = report(dir).results;
  assert.equal(result!.status, 'error');
  assert.equal(result!.input, null);
});
