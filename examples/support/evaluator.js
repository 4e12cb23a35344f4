// The agentest-kit way: a script that runs the suite and decides. Run it with `npx tsx evaluator.js`
// (tsx loads tests/*.test.ts); `agentest test -i .` does the same through the CLI.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  runSuite,
  fromJsonCases,
  fromRegistered,
  getRegistered,
  calcMetrics,
  judgeShipability,
  getTestStatus,
  printSummary,
  printMetrics,
  printShipVerdict,
} from '@agentest/test/kit';
import { createMockAdapter } from './adapters/mock-adapter.js';

const __dirname = fileURLToPath(new URL('.', import.meta.url));

async function main() {
  // Script-driven tests register themselves when imported.
  const testsDir = path.join(__dirname, 'tests');
  for (const file of fs
    .readdirSync(testsDir)
    .filter((f) => /\.test\.[jt]s$/.test(f))
    .sort()) {
    await import(pathToFileURL(path.join(testsDir, file)).href);
  }

  const cases = JSON.parse(fs.readFileSync(path.join(__dirname, 'cases.json'), 'utf8'));
  const tests = [...fromJsonCases(cases), ...fromRegistered(getRegistered())];
  const thresholds = { keyword_hit_rate: 0.7, intent_match_rate: 0.8 };

  const results = await runSuite(tests, createMockAdapter(), {
    label: 'customer support',
    apiUrl: 'mock://support',
    parallel: 4,
  });
  const metrics = calcMetrics(results);

  printSummary(results, getTestStatus);
  printMetrics(metrics, thresholds);

  const ship = judgeShipability(metrics, thresholds);
  printShipVerdict(ship);
  if (!ship.can_ship) process.exit(1);
}

main().catch((err) => {
  console.error('Fatal:', err.message);
  process.exit(1);
});
