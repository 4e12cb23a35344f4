import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { createKernel, type CaseResult } from '@agentest/kernel';
import { verdictPlugin } from '@agentest/report';
import type { AgentConfig } from '@agentest/plugin-agent';
import { agents } from '@agentest/plugin-agent';
import consoleReporter from '@agentest/reporter-console';
import { kit } from '../src/index.js';

const EXAMPLE = fileURLToPath(new URL('../../../examples/support/', import.meta.url));

test('the support example shows every status and a verdict', async () => {
  const { default: config } = (await import('../../../examples/support/agentest.config.ts')) as {
    default: { agents: Record<string, AgentConfig>; thresholds: Record<string, number> };
  };
  const grades = new Map<string, string>();
  const kernel = createKernel({
    plugins: [
      agents({ agents: config.agents }),
      kit({ agent: 'support' }),
      verdictPlugin(),
      {
        name: 'test:grades',
        apply: ({ hooks }) =>
          hooks.report.tap('test:grades', (e) => {
            if (e.type !== 'result') return;
            const r = e as CaseResult;
            grades.set(r.id, r.todo ? 'TODO' : r.status === 'skipped' ? 'SKIP' : String(r.runs[0]?.details?.grade));
          }),
      },
    ],
  });
  const outcome = await kernel.run({
    input: { input: '.', cwd: EXAMPLE },
    runs: 1,
    parallel: 4,
    failFast: false,
    env: {},
    verbose: false,
    thresholds: config.thresholds,
  });
  assert.deepEqual(new Set(grades.values()), new Set(['PASS', 'PARTIAL', 'FAIL', 'SKIP', 'TODO']));
  assert.equal(grades.get('tests/advanced.test.ts#追问场景：查物流后申请退款'), 'PASS');
  assert.deepEqual(outcome.summary.verdict, { can_ship: false, issues: ['Pass Rate 90.9% < threshold 100.0%'] });
});

test('through the console reporter, the rows of test() functions line up with the cases.json rows', async () => {
  const { default: config } = (await import('../../../examples/support/agentest.config.ts')) as {
    default: { agents: Record<string, AgentConfig>; thresholds: Record<string, number> };
  };
  const stream = Object.assign(new PassThrough(), { isTTY: false });
  let text = '';
  stream.on('data', (d) => (text += d));
  const kernel = createKernel({
    plugins: [
      agents({ agents: config.agents }),
      kit({ agent: 'support' }),
      verdictPlugin(),
      consoleReporter({ stream, color: false }),
    ],
  });
  await kernel.run({
    input: { input: '.', cwd: EXAMPLE },
    runs: 1,
    parallel: 4,
    failFast: false,
    env: {},
    verbose: false,
    thresholds: config.thresholds,
  });
  const rows = text.split('\n').filter((line) => /^ {3}(PASS|PART|FAIL|SKIP|TODO) {2}/.test(line));
  assert.equal(rows.length, 15);
  // The id column is 16 wide (advanced.test.ts), so every name starts at column 27.
  const idColumn = 'advanced.test.ts'.length;
  assert.ok(
    rows.some((row) => row.startsWith(`   PASS  C001${' '.repeat(idColumn - 4)}  C001${' '.repeat(36)}  `)),
    rows.join('\n'),
  );
  assert.ok(
    rows.some((row) => row.startsWith('   PASS  advanced.test.ts  追问场景：查物流后申请退款')),
    rows.join('\n'),
  );
  assert.ok(
    rows.every((row) => row.slice(9 + idColumn, 9 + idColumn + 2) === '  ' && row[9 + idColumn + 2] !== ' '),
    rows.join('\n'),
  );
  assert.match(text, /\n SUPPORT {3}\n/);
});
