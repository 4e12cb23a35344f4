/**
 * The reporter agent through the real CLI: `-r <agent-id> -o report.md` hands the run's report to an
 * agent served by the fake LLM and writes its reply; when the agent fails, the built-in Markdown
 * report is written instead and the exit code says a reporter failed.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startFakeLlm, type FakeLlm } from '@agentest/fake-llm';
import { runCli, stackFrames } from './helpers/cli.js';
import { workspace, writeCases, writeJson } from './helpers/workspace.js';

function project(name: string, url: string): string {
  const dir = workspace(name);
  writeCases(dir, 'cases.jsonl', [
    { id: 'ok', input: 'hello', assert: { type: 'contains', value: 'hello' } },
    { id: 'bad', input: 'hello', assert: { type: 'contains', value: 'goodbye' } },
  ]);
  writeJson(dir, 'agentest.config.json', {
    agents: { 'report.writer': { connector: 'fake' } },
    connectors: {
      fake: { type: 'openai', options: { host: url, model: 'fake-model', retries: 0, rate_limit_retries: 0 } },
    },
  });
  return dir;
}

describe('-r <agent-id>: the reporter agent', () => {
  let llm: FakeLlm;
  before(async () => {
    llm = await startFakeLlm({
      rules: [{ match: 'fail-me', reply: 'unused' }],
      default: '```markdown\n# Written by the reporter agent\n\nCase **bad** failed.\n```',
    });
  });
  after(() => llm.close());

  test('the agent receives {report, format, options} and its unfenced reply is the output file', async () => {
    const dir = project('llm-reporter-ok', llm.url);
    const run = await runCli(['test', '-i', 'cases.jsonl', '-n', 'echo', '-r', 'report.writer', '-o', 'report.md'], {
      cwd: dir,
    });
    assert.equal(run.code, 1, run.stderr);
    assert.equal(
      readFileSync(join(dir, 'report.md'), 'utf8').trim(),
      '# Written by the reporter agent\n\nCase **bad** failed.',
    );
    const sent = llm.requests.at(-1)!;
    const payload = JSON.parse(
      String((sent.body as { messages: { role: string; content: string }[] }).messages.at(-1)!.content),
    );
    assert.equal(payload.format, 'markdown');
    assert.equal(payload.report.summary.failed, 1);
    assert.ok(JSON.stringify(payload.report).includes('"bad"'), 'the failing case is in the report the agent sees');
  });

  test('when the reporter agent fails, the built-in report is written and the exit code is 3', async () => {
    const down = await startFakeLlm({ faults: [{ every: 1, fault: 500 }] });
    try {
      const dir = project('llm-reporter-down', down.url);
      const run = await runCli(['test', '-i', 'cases.jsonl', '-n', 'echo', '-r', 'report.writer', '-o', 'report.md'], {
        cwd: dir,
      });
      assert.equal(run.code, 3, run.stderr);
      assert.match(run.stderr, /REPORTER_FAILED/);
      assert.deepEqual(stackFrames(run.stderr), []);
      const written = readFileSync(join(dir, 'report.md'), 'utf8');
      assert.match(written, /^# Agent Test Report/m, 'the built-in Markdown report stands in');
      assert.match(written, /bad/);
    } finally {
      await down.close();
    }
  });
});
