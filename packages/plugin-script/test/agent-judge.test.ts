/**
 * `t.assert.Agent(response, agentId, opts)` in script tests: the script waits for the judge, which
 * runs on the main thread with the run's agents; a rejection fails the test, a judge that gives no
 * verdict makes it an error, and the judgements are recorded on the run with their cost.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Agent, AgentestPlugin, Message } from '@agentest/kernel';
import { APP, HANG_MS, plan, runKernel } from './helpers.js';

/** Config agents as judges: `judge` passes friendly replies, `garbage` answers prose. */
function judges(seen: Message[][]): AgentestPlugin {
  const judge: Agent = {
    id: 'judge',
    async run(messages) {
      seen.push(messages);
      const payload = JSON.parse(String(messages.at(-1)!.content)) as { output: unknown };
      const friendly = typeof payload.output !== 'string' || /hello/i.test(payload.output);
      return {
        content: JSON.stringify({ passed: friendly, reason: friendly ? 'friendly' : 'not friendly' }),
        text: '',
        usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
      };
    },
  };
  const garbage: Agent = { id: 'garbage', run: async () => ({ content: 'Looks fine to me.', text: '' }) };
  return {
    name: 'test:judges',
    apply({ hooks }) {
      hooks.resolve.tapPromise('test:judges', async (ref) =>
        ref.id === 'judge' ? judge : ref.id === 'garbage' ? garbage : undefined,
      );
    },
  };
}

test('t.assert.Agent: pass, fail, unreadable judge, samples and missing arguments', { timeout: HANG_MS }, async () => {
  const seen: Message[][] = [];
  const { runs } = await runKernel(plan('scripts.judged.judged', APP, { timeoutMs: HANG_MS }), {}, [judges(seen)]);
  const greets = runs.get('TestGreets')!;
  assert.equal(greets.status, 'passed');
  assert.deepEqual(greets.logs, ['after the judge']);
  assert.equal(greets.judge!.calls, 1);
  assert.equal(greets.judge!.usage!.total_tokens, 12);
  const record = (greets.details!.judges as { use: string; agreement: string }[])[0]!;
  assert.equal(record.use, 'agents:judge');
  assert.equal(record.agreement, '1/1');

  const rude = runs.get('TestRude')!;
  assert.equal(rude.status, 'failed');
  assert.equal(rude.error, 'assertion failed: not friendly');
  assert.deepEqual(rude.details!.assertion, { type: 'Agent', actual: 'Go away', message: 'not friendly' });
  assert.deepEqual(rude.logs, ['returned false'], 'the test goes on after a failed judgement');

  const garbage = runs.get('TestGarbage')!;
  assert.equal(garbage.status, 'error');
  assert.match(
    garbage.error!,
    /judge \(agents:garbage\): the judge's reply is not a JSON object: "Looks fine to me\."/,
  );

  const sampled = runs.get('TestSampled')!;
  assert.equal(sampled.status, 'passed');
  assert.equal(sampled.judge!.calls, 3);

  assert.equal(runs.get('TestTooFewArguments')!.status, 'failed');
  assert.match(runs.get('TestTooFewArguments')!.error!, /Agent requires response and agentID arguments/);

  // Yao ignores other keys; here a misspelt or unsupported option is an error naming it, not a different judgement.
  const misspelled = runs.get('TestMisspelledOption')!;
  assert.equal(misspelled.status, 'error');
  assert.match(misspelled.error!, /t\.assert\.Agent: "critera" is not an option \(did you mean "criteria"\?\)/);
  const negated = runs.get('TestNegateOption')!;
  assert.equal(negated.status, 'error');
  assert.match(negated.error!, /"negate" is not an option .*options: criteria, samples, connector/);

  const payloads = seen.map((m) => JSON.parse(String(m.at(-1)!.content)) as Record<string, unknown>);
  assert.ok(
    payloads.some((p) => p.context === 'support' && p.input === null && p.criteria === 'a friendly greeting'),
    'Yao payload: input null, criteria from opts, metadata at the top level',
  );
});
