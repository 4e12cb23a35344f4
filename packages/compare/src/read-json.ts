import type { ComparisonInput } from './comparison-input.js';
import { caseRecord, isObject, statusOf, text, type Loose } from './read-case.js';
import { unreadable } from './report-errors.js';

/**
 * Reads the `.json` report: Yao's agent report (`summary`, `results`, `stability_results` with each
 * run in `run_details`) or the script report (`"type": "script_test"`, cases named by `name`).
 */
export function readJsonReport(document: unknown, shown: string): ComparisonInput {
  if (!isObject(document) || !Array.isArray(document.results) || !isObject(document.summary)) {
    throw unreadable(
      shown,
      'is JSON but not an agentest report: a report has "summary" and "results" (pass a .jsonl stream or a .json report written by agentest test)',
    );
  }
  const script = document.type === 'script_test';
  const summary = document.summary;
  const metadata = isObject(document.metadata) ? document.metadata : {};
  const runDetails = new Map<string, Loose[]>();
  for (const entry of (Array.isArray(document.stability_results) ? document.stability_results : []).filter(isObject)) {
    if (typeof entry.id === 'string' && Array.isArray(entry.run_details))
      runDetails.set(entry.id, entry.run_details.filter(isObject));
  }
  const cases = new Map<string, ReturnType<typeof caseRecord>>();
  document.results.forEach((entry: unknown, index: number) => {
    const id = isObject(entry) ? text(script ? (entry.name ?? entry.id) : entry.id) : undefined;
    if (!isObject(entry) || !id || !statusOf(entry.status)) {
      throw unreadable(
        shown,
        `results[${index}] needs ${script ? '"name"' : '"id"'} and a "status" (passed, failed, error, timeout or skipped)`,
      );
    }
    if (cases.has(id))
      throw unreadable(shown, `case "${id}" appears twice in "results"; a report holds each case once`);
    cases.set(id, caseRecord(id, entry, runDetails.get(id) ?? []));
  });
  const agent = text(summary.agent_id);
  const connector = text(summary.connector);
  const startedAt = text(metadata.started_at);
  return {
    file: shown,
    format: 'json',
    suite: (script ? text(document.script) : text(metadata.input_file)) ?? '',
    kind: script ? 'script' : 'agent',
    ...(agent ? { agent } : {}),
    ...(connector ? { connector } : {}),
    runsPerCase: typeof summary.runs_per_case === 'number' ? summary.runs_per_case : 1,
    ...(startedAt ? { startedAt } : {}),
    complete: summary.interrupted !== true && summary.halted === undefined,
    cases,
  };
}
