/**
 * Secrets: an API key (and the `Authorization` header that carries it) never appears in any output
 * file, log line or error message, at any verbosity — `-v` and `DEBUG=agentest:*` included — even
 * when the server echoes the key back in its error text, as OpenAI's 401 does.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startFakeLlm, type FakeLlm } from '@agentest/fake-llm';
import { runCli, type CliRun } from './helpers/cli.js';
import { workspace, writeCases, writeJson } from './helpers/workspace.js';

const SUFFIX = randomBytes(9).toString('hex');
const KEY = `sk-test-SECRET-${SUFFIX}`;
const WRONG_KEY = `sk-test-SECRET-WRONG-${SUFFIX}`;
/** Fragments that betray the key even when it is cut or partly masked. */
const LEAKS = [KEY, WRONG_KEY, SUFFIX, SUFFIX.slice(0, 8), SUFFIX.slice(-8), `Bearer ${KEY.slice(0, 12)}`];
// CI empty: a first run writes its snapshots (with CI set a missing one fails and nothing is written).
const LOUD = { DEBUG: 'agentest:*', AGENTEST_E2E_KEY: KEY, AGENTEST_E2E_WRONG_KEY: WRONG_KEY, CI: '' };

function leaksIn(text: string): string[] {
  return LEAKS.filter((fragment) => text.includes(fragment));
}

/** Every file under `dir` except the config (which holds no key: it names the variables). */
function scanDir(dir: string): { file: string; leaks: string[] }[] {
  const found: { file: string; leaks: string[] }[] = [];
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    if (!statSync(path).isFile()) continue;
    const leaks = leaksIn(readFileSync(path, 'latin1'));
    if (leaks.length) found.push({ file: name, leaks });
  }
  return found;
}

describe('secrets never leak', () => {
  let llm: FakeLlm;
  before(async () => {
    llm = await startFakeLlm({
      echo: true,
      apiKey: KEY,
      rules: [
        // A server that echoes the key in its error text.
        {
          match: '^echo-key-401\\b',
          fault: {
            type: 'status',
            status: 401,
            message: `Incorrect API key provided: ${KEY}. Authorization: Bearer ${KEY}`,
          },
        },
        // A model that repeats the key it was sent: the reply is redacted in every output, but judged raw.
        { match: '^echo-key-reply\\b', reply: `Sure. Your key is ${KEY}.` },
        { match: '^flaky\\b', fault: 503, times: 1 },
        { match: '^slow\\b', fault: 'hang' },
      ],
    });
  });
  after(() => llm?.close());

  function project(name: string): string {
    const dir = workspace(name);
    writeJson(dir, 'agentest.config.json', {
      agents: { bot: { connector: 'fake' }, intruder: { connector: 'wrong' } },
      connectors: {
        fake: {
          type: 'openai',
          model: 'fake-model',
          host: llm.url,
          key: '$ENV.AGENTEST_E2E_KEY',
          retries: 1,
          backoff_ms: 5,
        },
        wrong: {
          type: 'openai',
          model: 'fake-model',
          host: llm.url,
          key: '$ENV.AGENTEST_E2E_WRONG_KEY',
          retries: 1,
          backoff_ms: 5,
        },
      },
    });
    writeCases(dir, 'cases.jsonl', [
      { id: 'ok', input: 'hello there', assert: { type: 'contains', value: 'hello' } },
      { id: 'failing', input: 'hello again', assert: { type: 'contains', value: 'absent' } },
      { id: 'echo-key-401', input: 'echo-key-401 please' },
      {
        id: 'echo-key-reply',
        input: 'echo-key-reply please',
        // The snapshot file is committed: the key is stored (and compared) as `[redacted]`.
        assert: [{ type: 'regex', value: 'key is sk-test-SECRET-[0-9a-f]{18}\\.$' }, { type: 'snapshot' }],
      },
      { id: 'flaky', input: 'flaky please' },
      { id: 'slow', input: 'slow please', timeout: '300ms' },
    ]);
    return dir;
  }

  const check = (label: string, run: CliRun, dir: string) => {
    assert.deepEqual(leaksIn(run.stdout), [], `${label}: stdout leaks the key`);
    assert.deepEqual(leaksIn(run.stderr), [], `${label}: stderr leaks the key`);
    assert.deepEqual(scanDir(dir), [], `${label}: an output file leaks the key`);
  };

  for (const output of ['report.json', 'report.md', 'report.html', 'report.xml', 'report.txt']) {
    test(`-o ${output} plus -o run.jsonl, the GitHub reporter, with -v and DEBUG=agentest:*`, async () => {
      const dir = project(`secret-${output.split('.')[1]}`);
      const github = {
        GITHUB_ACTIONS: 'true',
        GITHUB_STEP_SUMMARY: join(dir, 'step-summary.md'),
        GITHUB_WORKSPACE: dir,
      };
      const run = await runCli(
        ['test', '-i', 'cases.jsonl', '-n', 'bot', '-o', output, '-o', 'run.jsonl', '-v', '--parallel', '5'],
        { cwd: dir, env: { ...LOUD, ...github } },
      );
      assert.equal(run.code, 1, run.stderr.slice(-2000));
      assert.ok(statSync(join(dir, 'run.jsonl')).size > 0, 'the event stream was written');
      assert.ok(statSync(join(dir, output)).size > 0);
      assert.match(run.stderr, /agentest:connector/, 'the debug log was on');
      if (output === 'report.json') {
        const report = JSON.parse(readFileSync(join(dir, output), 'utf8')) as {
          results: { id: string; error?: string }[];
        };
        const echoed = report.results.find((r) => r.id === 'echo-key-401')!;
        assert.match(
          echoed.error!,
          /HTTP 401.*Incorrect API key provided: \[redacted\]/,
          'the echoed key was redacted, not dropped with the reason',
        );
        const reply = report.results.find((r) => r.id === 'echo-key-reply') as { status: string; output?: string };
        assert.equal(reply.status, 'passed', 'the verdict was judged on the raw reply, which holds the key');
        assert.equal(reply.output, 'Sure. Your key is [redacted].');
      }
      assert.ok(statSync(join(dir, 'step-summary.md')).size > 0, 'the GitHub step summary was written');
      check(output, run, dir);
    });
  }

  test('a wrong key: every case is a 401 error, and neither key shows anywhere', async () => {
    const dir = project('secret-wrong');
    const run = await runCli(['test', '-i', 'cases.jsonl', '-n', 'intruder', '-o', 'report.json', '-v'], {
      cwd: dir,
      env: LOUD,
    });
    assert.equal(run.code, 1);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
      results: { id: string; status: string; error?: string }[];
    };
    for (const result of report.results.filter((r) => r.id !== 'slow')) {
      assert.equal(result.status, 'error', result.id);
      assert.match(result.error!, /HTTP 401/);
    }
    check('wrong key', run, dir);
  });

  test('a connector config error at DEBUG level (stack and causes printed) does not show the key', async () => {
    const dir = workspace('secret-config');
    writeJson(dir, 'agentest.config.json', {
      agents: { bot: { connector: 'fake' } },
      connectors: {
        fake: {
          type: 'openai',
          model: 'fake-model',
          host: llm.url,
          key: KEY,
          temperature: 'hot',
          headers: { Authorization: `Bearer ${KEY}` },
        },
      },
    });
    writeCases(dir, 'cases.jsonl', [{ id: 'a', input: 'hi' }]);
    const run = await runCli(['test', '-i', 'cases.jsonl', '-n', 'bot'], { cwd: dir, env: LOUD });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /error\[CONNECTOR_INVALID\].*temperature/);
    assert.deepEqual(leaksIn(run.stdout + run.stderr), []);
  });

  test('-r <agent>: the reporter agent gets the report with the key redacted, and its reply is redacted too', async () => {
    const dir = project('secret-llm');
    const run = await runCli(['test', '-i', 'cases.jsonl', '-n', 'bot', '-r', 'bot', '-o', 'llm-report.md', '-v'], {
      cwd: dir,
      env: LOUD,
    });
    assert.equal(run.code, 1, run.stderr.slice(-2000));
    assert.ok(statSync(join(dir, 'llm-report.md')).size > 0);
    check('-r bot', run, dir);
  });
});
