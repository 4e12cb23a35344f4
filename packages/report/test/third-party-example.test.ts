import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import slackReporter from '../../../examples/reporters/slack-reporter.js';
import { mixedCases, runScenario, tempDir } from './scenario.js';

// The documented third-party reporter (docs/reporters.md) must keep working against the real kernel.
test('the Slack example reporter writes a Block Kit payload naming the failures', async () => {
  const dir = await tempDir();
  await runScenario(
    mixedCases(),
    [slackReporter({ cwd: dir, output: 'out/run.slack.json', channel: '#agents', maxFailures: 2 })],
    { thresholds: { pass_rate: 0.9 } },
  );
  const payload = JSON.parse(await readFile(join(dir, 'out/run.slack.json'), 'utf8'));
  assert.equal(payload.channel, '#agents');
  assert.equal(payload.text, '❌ Agent tests failed: keyword (2/6 passed)');
  assert.deepEqual(
    payload.blocks.map((b: { type: string }) => b.type),
    ['header', 'section', 'divider', 'section', 'context', 'context'],
  );
  const fields: string[] = payload.blocks[1].fields.map((f: { text: string }) => f.text);
  // The run's wall-clock duration depends on the machine's load; only its format is fixed.
  assert.match(fields[3]!, /^\*Duration\*\n\d+\.\ds$/);
  assert.deepEqual(
    [...fields.slice(0, 3), fields[4]],
    ['*Passed*\n2 / 6', '*Failed*\n3', '*Pass rate*\n40.0%', '*Verdict*\nDO NOT SHIP'],
  );
  assert.equal(
    payload.blocks[3].text.text,
    "*Failures*\n• `T002` failed: output does not contain 'cloud'\n• `T003` timeout: timeout after 30s\n…and 1 more",
  );
  assert.match(payload.blocks[4].elements[0].text, /^⚠️ Pass Rate 40.0% &lt; threshold 90.0%$/);
});
