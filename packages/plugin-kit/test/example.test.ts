import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { createKernel, type AgentConfig, type CaseResult } from '@agentest/kernel';
import { agents } from '@agentest/plugin-agent';
import { kit } from '../src/index.js';

const EXAMPLE = fileURLToPath(new URL('../../../examples/support/', import.meta.url));

test('the support example shows every status and a verdict', async () => {
  const { default: config } = (await import('../../../examples/support/agentest.config.ts')) as { default: { agents: Record<string, AgentConfig>; thresholds: Record<string, number> } };
  const grades = new Map<string, string>();
  const kernel = createKernel({
    plugins: [
      agents({ agents: config.agents }),
      kit({ agent: 'support' }),
      {
        name: 'test:grades',
        apply: ({ hooks }) => hooks.report.tap('test:grades', (e) => {
          if (e.type !== 'result') return;
          const r = e as CaseResult;
          grades.set(r.id, r.todo ? 'TODO' : r.status === 'skipped' ? 'SKIP' : String(r.runs[0]?.details?.grade));
        }),
      },
    ],
  });
  const outcome = await kernel.run({ input: { input: '.', cwd: EXAMPLE }, runs: 1, parallel: 4, failFast: false, env: {}, verbose: false, thresholds: config.thresholds });
  assert.deepEqual(new Set(grades.values()), new Set(['PASS', 'PARTIAL', 'FAIL', 'SKIP', 'TODO']));
  assert.equal(grades.get('tests/advanced.test.ts#追问场景：查物流后申请退款'), 'PASS');
  assert.deepEqual(outcome.summary.verdict, { can_ship: false, issues: ['Pass Rate 90.9% < threshold 100.0%'] });
  assert.equal(outcome.exitCode, 1);
});
