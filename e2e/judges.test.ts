/**
 * Agent-judged assertions from the command line: a JSONL suite whose agent and judge are both
 * connectors on the fake LLM server, run with `--runs 2`. Verdicts, a judge that answers garbage and
 * one that hangs, the judge record and variance in the `.json` report, and the exit code.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { startFakeLlm, type FakeLlm } from '@agentest/fake-llm';
import { runCli, type CliRun } from './helpers/cli.js';
import { connectorConfig, workspace, writeCases, writeJson } from './helpers/workspace.js';

interface JsonResult {
  id: string;
  status: string;
  error: string | null;
  assertions: { type: string; pass: boolean; judge?: { agreement: string; seed: number; temperature: number } }[];
  judge_usage?: { calls: number };
  variance?: { agent: { runs: number; passed: number }; judge: { samples: number; agreeing: number } };
}

describe('agent assertions (CLI, connector judge on the fake LLM)', () => {
  const dir = workspace('judges');
  let llm: FakeLlm;
  let run: CliRun;
  let results: Map<string, JsonResult>;

  before(async () => {
    llm = await startFakeLlm({
      rules: [
        // The judge: its payload carries the criteria and the agent's output.
        { match: '"criteria":"polite".*"output":"Thank you', reply: '{"passed": true, "reason": "thanks the user"}' },
        { match: '"criteria":"polite"', reply: '{"passed": false, "reason": "curt"}' },
        { match: '"criteria":"garbage"', reply: 'I would say it is fine.' },
        { match: '"criteria":"hang"', fault: 'hang' },
        // The agent.
        { match: '^thanks', reply: 'Thank you for asking!' },
        { match: '^curt', reply: 'No.' },
      ],
      default: 'Thank you.',
    });
    writeJson(dir, 'agentest.config.json', {
      ...connectorConfig(llm.url),
      connectors: {
        ...(connectorConfig(llm.url).connectors as object),
        judge: { type: 'openai', model: 'judge-model', host: llm.url, retries: 0 },
      },
    });
    const judged = (value: string, extra: Record<string, unknown> = {}) => ({
      type: 'agent',
      use: 'connector:judge',
      value,
      samples: 3,
      ...extra,
    });
    writeCases(dir, 'cases.jsonl', [
      { id: 'polite', input: 'thanks please', assert: judged('polite') },
      { id: 'curt', input: 'curt please', assert: judged('polite') },
      { id: 'garbage', input: 'thanks please', assert: judged('garbage', { negate: true }) },
      { id: 'hang', input: 'thanks please', assert: judged('hang', { options: { timeout: '500ms' } }) },
    ]);
    run = await runCli(['test', '-i', 'cases.jsonl', '-n', 'bot', '--runs', '2', '-o', 'out.json'], { cwd: dir });
    const report = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as { results: JsonResult[] };
    results = new Map(report.results.map((r) => [r.id, r]));
  });
  after(() => llm?.close());

  test('verdicts, and errors for a judge that answers garbage or hangs (negated or not); exit code 1', () => {
    assert.equal(run.code, 1, run.stderr);
    assert.equal(results.get('polite')!.status, 'passed');
    assert.equal(results.get('curt')!.status, 'failed');
    assert.equal(results.get('curt')!.error, 'curt');
    assert.equal(results.get('garbage')!.status, 'error');
    assert.match(results.get('garbage')!.error!, /not a JSON object: "I would say it is fine\."/);
    assert.equal(results.get('hang')!.status, 'error');
    assert.match(results.get('hang')!.error!, /connector:judge gave no answer within 500ms/);
  });

  test('the judge record, the judge usage and the two variances are in the .json report', () => {
    const polite = results.get('polite')!;
    const record = polite.assertions[0]!.judge!;
    assert.deepEqual([record.agreement, record.temperature, record.seed], ['3/3', 0, 42]);
    assert.equal(polite.judge_usage!.calls, 3);
    assert.deepEqual(polite.variance!.agent, { runs: 2, passed: 2, pass_rate: 1 });
    assert.deepEqual([polite.variance!.judge.samples, polite.variance!.judge.agreeing], [6, 6]);
    const sent = llm.requests.filter((r) => r.model === 'judge-model');
    assert.ok(sent.every((r) => (r.body as { temperature: number }).temperature === 0));
    assert.deepEqual([...new Set(sent.map((r) => (r.body as { seed: number }).seed))].sort(), [42, 43, 44]);
  });

  test('the console shows each judged case’s agent and judge variance', () => {
    assert.match(run.stdout, /agent: passed 2\/2 runs · judge: 6\/6 samples agreed with their majority/);
  });
});

describe('the example app’s judged suite (a Yao assistant judge and an app connector judge, offline)', () => {
  const suite = fileURLToPath(new URL('../examples/app/assistants/keyword/tests/judged.jsonl', import.meta.url));
  const dir = workspace('judged-app');

  test('judges by connector:mock.judge and agents:judge with samples: 3', async () => {
    const run = await runCli(['test', '-i', suite, '--runs', '1', '-o', join(dir, 'out.json')], { cwd: dir });
    assert.equal(run.code, 1, run.stderr);
    const report = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as { results: JsonResult[] };
    const status = Object.fromEntries(report.results.map((r) => [r.id, r.status]));
    assert.deepEqual(
      { J01: status.J01, J03: status.J03, J05: status.J05 },
      { J01: 'passed', J03: 'failed', J05: 'passed' },
    );
    const assistant = report.results.find((r) => r.id === 'J05')!.assertions[0]!.judge!;
    assert.equal(assistant.agreement, '3/3', 'the assistant judge answered YAML, read as a verdict');
    assert.equal(report.results.find((r) => r.id === 'J03')!.error, 'The output is plain text, not JSON.');
  });
});
