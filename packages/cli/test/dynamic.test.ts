import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agentestInProcess as agentest } from './in-process.js';
import { briefs, HAPPY, ORDER_CHECKPOINTS, project, report, SIMULATOR } from './dynamic-fixture.js';

test('a dynamic case plays the simulated user turn by turn and passes when every required checkpoint is reached', async () => {
  const dir = project(HAPPY, [
    {
      id: 'order',
      input: 'Hi, I would like a coffee',
      simulator: SIMULATOR,
      checkpoints: ORDER_CHECKPOINTS,
      max_turns: 8,
    },
  ]);
  const run = await agentest(['test', '-i', 'cases.jsonl', '-n', 'shop', '-o', 'out.json'], { cwd: dir });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const [result] = report(dir).results;
  const dynamic = result!.details.dynamic;
  assert.equal(result!.status, 'passed');
  assert.equal(dynamic.end_reason, 'completed');
  assert.equal(dynamic.total_turns, 3);
  assert.deepEqual(
    dynamic.turns.map((t: Record<string, unknown>) => [t.turn, t.from, t.input, t.checkpoints_reached]),
    [
      [1, 'input', 'Hi, I would like a coffee', ['greeting']],
      [2, 'simulator', 'A latte please', ['ask_size']],
      [3, 'simulator', 'Medium, please', ['confirm']],
    ],
  );
  for (const turn of dynamic.turns) assert.equal(typeof turn.duration_ms, 'number');
  assert.deepEqual(
    dynamic.checkpoints.map((c: Record<string, unknown>) => [c.id, c.reached, c.reached_at_turn]),
    [
      ['greeting', true, 1],
      ['ask_size', true, 2],
      ['confirm', true, 3],
    ],
  );
  assert.equal(dynamic.transcript.length, 6, 'three user messages and three replies');
  assert.equal(result!.output, 'Please confirm: one medium latte?', 'the output is the last reply');

  // The input opens the conversation, so the simulator is asked on turns 2 and 3 only, each time
  // with the conversation so far, the progress in definition order and the extra metadata.
  const asked = briefs(dir);
  assert.deepEqual(
    asked.map((a) => a.brief.turn_number),
    [2, 3],
  );
  assert.equal(asked[0]!.count, 1, 'one message: the brief');
  assert.deepEqual(asked[1]!.brief, {
    persona: 'A customer',
    goal: 'Order a medium latte',
    conversation: dynamic.transcript.slice(0, 4),
    turn_number: 3,
    max_turns: 8,
    checkpoints_reached: ['greeting', 'ask_size'],
    checkpoints_pending: ['confirm'],
    extra: { style: 'terse' },
  });
  assert.notEqual(asked[0]!.chat_id, asked[1]!.chat_id, 'each simulator call has a chat id of its own');
});

test('the simulator’s brief is escaped as Yao’s Go encoder writes it: <, > and & as \\u003c, \\u003e, \\u0026', async () => {
  const dir = project(HAPPY, [
    {
      id: 'escaped',
      input: 'Hi, a <large> coffee & a cake',
      simulator: { use: 'sim', options: { metadata: { goal: 'Coffee & cake <now>' } } },
      checkpoints: ORDER_CHECKPOINTS,
      max_turns: 2,
    },
  ]);
  await agentest(['test', '-i', 'cases.jsonl', '-n', 'shop', '-o', 'out.json'], { cwd: dir });
  const [asked] = briefs(dir);
  assert.equal(asked!.brief.goal, 'Coffee & cake <now>', 'the value read back is unchanged');
  assert.match(asked!.raw, /"goal":"Coffee \\u0026 cake \\u003cnow\\u003e"/);
  assert.match(asked!.raw, /"content":"Hi, a \\u003clarge\\u003e coffee \\u0026 a cake"/);
  assert.doesNotMatch(asked!.raw, /[<>&]/);
});

test('a simulator that never finishes ends at max_turns: failed, naming the checkpoint not reached and why', async () => {
  const dir = project(HAPPY, [
    {
      id: 'never',
      input: 'Hi, I would like a coffee',
      simulator: SIMULATOR,
      checkpoints: [{ id: 'refund', assert: { type: 'contains', value: 'refund' } }],
      max_turns: 2,
    },
  ]);
  const run = await agentest(['test', '-i', 'cases.jsonl', '-n', 'shop', '-o', 'out.json'], { cwd: dir });
  assert.equal(run.code, 1);
  const [result] = report(dir).results;
  assert.equal(result!.status, 'failed');
  assert.match(
    result!.error!,
    /^max turns \(2\) exceeded without reaching all checkpoints: "refund" not reached \(output does not contain 'refund'\)/,
  );
  assert.equal(result!.details.dynamic.end_reason, 'max_turns');
  assert.equal(result!.details.dynamic.turns.length, 2);
  assert.equal(briefs(dir).length, 1, 'max_turns bounds the agent calls: the input spoke first, the simulator once');
});

test('checkpoint order: a match before the checkpoints it waits for earns nothing; a later match still counts', async () => {
  // The shop asks for the size on turn 2, before "confirm" is reached on turn 3, and again on turn 4.
  const shop = {
    2: '{"message": "a latte"}',
    3: '{"message": "show me the medium options"}',
    4: '{"message": "a latte again"}',
  };
  const dir = project(shop, [
    {
      id: 'order-violated',
      input: 'coffee',
      simulator: { use: 'sim' },
      checkpoints: [
        { id: 'size', after: ['confirm'], assert: { type: 'regex', value: '(?i)size' } },
        { id: 'confirm', assert: { type: 'regex', value: '(?i)confirm' } },
      ],
      max_turns: 4,
    },
    {
      id: 'never-again',
      input: 'coffee',
      simulator: { use: 'sim' },
      checkpoints: [
        { id: 'size', after: ['confirm'], assert: { type: 'regex', value: '(?i)size' } },
        { id: 'confirm', assert: { type: 'regex', value: '(?i)confirm' } },
      ],
      max_turns: 3,
    },
  ]);
  const run = await agentest(['test', '-i', 'cases.jsonl', '-n', 'shop', '-o', 'out.json'], { cwd: dir });
  const [late, never] = report(dir).results;
  assert.equal(late!.status, 'passed', run.stdout);
  assert.deepEqual(
    late!.details.dynamic.checkpoints.map((c: Record<string, unknown>) => [c.id, c.reached_at_turn]),
    [
      ['size', 4],
      ['confirm', 3],
    ],
    '"size" matched on turn 2, before "confirm": no credit until it matched again on turn 4',
  );
  assert.equal(never!.status, 'failed');
  assert.match(never!.error!, /"size" not reached/);
  assert.equal(run.code, 1);
});

test('a checkpoint unblocked in the same turn is judged in that turn, whatever its place in the list', async () => {
  const dir = project({}, [
    {
      id: 'same-turn',
      input: 'coffee',
      simulator: { use: 'sim' },
      checkpoints: [
        { id: 'order', after: ['hello'], assert: { type: 'contains', value: 'order' } },
        { id: 'hello', assert: { type: 'contains', value: 'Hello' } },
      ],
    },
  ]);
  const run = await agentest(['test', '-i', 'cases.jsonl', '-n', 'shop', '-o', 'out.json'], { cwd: dir });
  assert.equal(run.code, 0, run.stdout);
  const [result] = report(dir).results;
  assert.deepEqual(result!.details.dynamic.turns[0].checkpoints_reached, ['order', 'hello']);
});

test('the simulator saying its goal is achieved ends the conversation: failed with the required checkpoints pending', async () => {
  const dir = project({ 2: '{"goal_achieved": true, "message": "Thanks, bye"}' }, [
    { id: 'early', input: 'coffee', simulator: SIMULATOR, checkpoints: ORDER_CHECKPOINTS },
  ]);
  const run = await agentest(['test', '-i', 'cases.jsonl', '-n', 'shop', '-o', 'out.json'], { cwd: dir });
  assert.equal(run.code, 1);
  const [result] = report(dir).results;
  assert.equal(result!.status, 'failed');
  assert.match(
    result!.error!,
    /ended the conversation at turn 2 \(goal achieved\) .*"ask_size" not reached .*; "confirm" not reached \(waiting for "ask_size"\)/,
  );
  assert.equal(result!.details.dynamic.end_reason, 'goal_achieved');
  assert.equal(result!.details.dynamic.final_message, 'Thanks, bye');
});

test('a simulator that answers garbage or fails is an error on its case, quoting what it said; the run goes on', async () => {
  const cases = [
    { id: 'garbage', input: 'coffee', simulator: { use: 'sim' }, checkpoints: ORDER_CHECKPOINTS },
    { id: 'prose-ok', input: 'coffee', simulator: { use: 'sim' }, checkpoints: ORDER_CHECKPOINTS, max_turns: 2 },
  ];
  const garbage = project({ 2: '[1, 2, 3]' }, cases.slice(0, 1));
  const run = await agentest(['test', '-i', 'cases.jsonl', '-n', 'shop', '-o', 'out.json'], { cwd: garbage });
  assert.equal(run.code, 1);
  assert.equal(report(garbage).results[0]!.status, 'error');
  assert.match(
    report(garbage).results[0]!.error!,
    /simulator "sim" at turn 2: the simulator returned "\[1, 2, 3\]", a JSON value that is not an object/,
  );

  const noMessage = project({ 2: '{"goal_achieved": false}' }, cases.slice(0, 1));
  await agentest(['test', '-i', 'cases.jsonl', '-n', 'shop', '-o', 'out.json'], { cwd: noMessage });
  assert.match(report(noMessage).results[0]!.error!, /without a "message"/);

  const down = project({ 2: 'THROW' }, cases);
  await agentest(['test', '-i', 'cases.jsonl', '-n', 'shop', '-o', 'out.json'], { cwd: down });
  const results = report(down).results;
  assert.equal(results.length, 2, 'both cases ran');
  assert.equal(results[0]!.status, 'error');
  assert.match(results[0]!.error!, /simulator "sim" failed at turn 2: simulator backend is down/);
  assert.equal(results[0]!.details.dynamic.end_reason, 'simulator_error');
  assert.equal(results[0]!.details.dynamic.turns.length, 2, 'turn 1 was played; turn 2 records the failure');

  // Prose whose first line has ": " is the user's message (Yao parses it as YAML and rejects it, W6).
  const prose = project({ 2: 'Sure: a latte please' }, cases.slice(1));
  await agentest(['test', '-i', 'cases.jsonl', '-n', 'shop', '-o', 'out.json'], { cwd: prose });
  assert.equal(report(prose).results[0]!.details.dynamic.turns[1].input, 'Sure: a latte please');
});
