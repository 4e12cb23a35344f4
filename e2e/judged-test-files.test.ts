/**
 * `expect(reply).toSatisfy(criteria, { judge })` in a test() file, run from the command line, takes the
 * same judge path as a JSONL `agent` assertion: the same judge prompt, temperature 0 and a seed per sample,
 * `samples` with a majority, a judge without a verdict as an error (never a failure, never a pass under
 * `.not`), the judge record on the result and the judge's calls counted apart from the agent's.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startFakeLlm, type FakeLlm } from '@agentest/fake-llm';
import { runCli, type CliRun } from './helpers/cli.js';
import { connectorConfig, workspace, writeCases, writeJson } from './helpers/workspace.js';

interface JsonResult {
  id: string;
  name?: string;
  status: string;
  error: string | null;
  /** With one run, the run's details are the case's. */
  details?: { judges?: { use: string; agreement: string; temperature: number; seed: number; samples: number }[] };
  judge_usage?: { calls: number };
  variance?: { judge: { samples: number; agreeing: number } };
}

const dir = workspace('judged-test-files');
let llm: FakeLlm;
let kit: CliRun;
let byName: Map<string, JsonResult>;

/** The judge requests the fake server got whose payload names `criteria`. */
const judgeRequests = (criteria: string) =>
  llm.requests.filter(
    (r) => r.model === 'judge-model' && JSON.stringify(r.body).includes(`\\"criteria\\":\\"${criteria}\\"`),
  );

before(async () => {
  llm = await startFakeLlm({
    rules: [
      { match: '"criteria":"polite".*"output":"Thank you', reply: '{"passed": true, "reason": "thanks the user"}' },
      { match: '"criteria":"polite"', reply: '{"passed": false, "reason": "curt"}' },
      { match: '"criteria":"plain"', reply: '{"passed": true, "reason": "fine"}' },
      { match: '"criteria":"garbage"', reply: 'I would say it is fine.' },
      { match: '"criteria":"hang"', fault: 'hang' },
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
  mkdirSync(join(dir, 'tests'));
  writeFileSync(
    join(dir, 'tests/judged.test.ts'),
    `import { test, expect } from '@agentest/test';
const judge = 'connector:judge';
test('polite', async (ctx) => {
  await expect(await ctx.run('thanks please')).toSatisfy('polite', { judge, samples: 3 });
});
test('curt', async (ctx) => {
  await expect(await ctx.run('curt please')).toSatisfy('polite', { judge, samples: 3 });
});
test('garbage under not', async (ctx) => {
  await expect(await ctx.run('thanks please')).not.toSatisfy('garbage', { judge });
});
test('hang', async (ctx) => {
  await expect(await ctx.run('thanks please')).toSatisfy('hang', { judge, timeout: '500ms' });
});
test('plain', async (ctx) => {
  await expect(await ctx.run('thanks please')).toSatisfy('plain', { judge });
});
`,
  );
  kit = await runCli(['test', '-i', 'tests/judged.test.ts', '-n', 'bot', '-o', 'kit.json'], { cwd: dir });
  const report = JSON.parse(readFileSync(join(dir, 'kit.json'), 'utf8')) as { results: JsonResult[] };
  byName = new Map(report.results.map((r) => [r.name ?? r.id, r]));
});
after(() => llm?.close());

test('verdicts by majority; a judge without a verdict is an error, under .not too; exit code 1', () => {
  assert.equal(kit.code, 1, kit.stderr);
  assert.equal(byName.get('polite')!.status, 'passed', byName.get('polite')!.error ?? '');
  assert.equal(byName.get('curt')!.status, 'failed');
  assert.match(byName.get('curt')!.error!, /to satisfy "polite" \(judge connector:judge: curt\)/);
  assert.equal(byName.get('garbage under not')!.status, 'error');
  assert.match(byName.get('garbage under not')!.error!, /not a JSON object: "I would say it is fine\."/);
  assert.equal(byName.get('hang')!.status, 'error');
  assert.match(byName.get('hang')!.error!, /connector:judge gave no answer within 500ms/);
});

test('temperature 0 and a seed per sample, recorded on the result, and the judge calls counted apart', () => {
  const sent = judgeRequests('polite');
  assert.equal(sent.length, 6, 'three samples for each of the two tests');
  assert.ok(sent.every((r) => (r.body as { temperature: number }).temperature === 0));
  assert.deepEqual([...new Set(sent.map((r) => (r.body as { seed: number }).seed))].sort(), [42, 43, 44]);
  const polite = byName.get('polite')!;
  const record = polite.details!.judges![0]!;
  assert.deepEqual(
    [record.use, record.agreement, record.samples, record.temperature, record.seed],
    ['connector:judge', '3/3', 3, 0, 42],
  );
  assert.equal(polite.judge_usage!.calls, 3);
  assert.deepEqual([polite.variance!.judge.samples, polite.variance!.judge.agreeing], [3, 3]);
});

test('the judge gets the same prompt and settings as for a JSONL agent assertion', async () => {
  writeCases(dir, 'cases.jsonl', [
    { id: 'plain', input: 'thanks please', assert: { type: 'agent', use: 'connector:judge', value: 'plain' } },
  ]);
  const jsonl = await runCli(['test', '-i', 'cases.jsonl', '-n', 'bot', '-o', 'jsonl.json'], { cwd: dir });
  assert.equal(jsonl.code, 0, jsonl.stderr);
  const [fromTestFile, fromJsonl] = judgeRequests('plain').map((r) => r.body as Record<string, any>);
  assert.ok(fromTestFile && fromJsonl, 'both runs asked the judge');
  const settings = (body: Record<string, any>) => ({ ...body, messages: body.messages.length });
  assert.deepEqual(settings(fromTestFile), settings(fromJsonl), 'model, temperature, seed and the rest');
  assert.deepEqual(fromTestFile.messages[0], fromJsonl.messages[0], 'the same system prompt');
  const payload = (body: Record<string, any>) => JSON.parse(body.messages.at(-1).content);
  const [a, b] = [payload(fromTestFile), payload(fromJsonl)];
  assert.deepEqual(Object.keys(a).sort(), Object.keys(b).sort(), 'the same payload fields');
  assert.deepEqual([a.output, a.criteria], [b.output, b.criteria]);
});
