import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/**
 * A temporary directory for one test file's fixtures, removed when the test process exits. (An
 * `after()` registered from inside a `before()` hook can fire before the suite's last test.)
 */
export function workspace(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `agentest-e2e-${prefix}-`));
  if (made.size === 0) process.once('exit', () => made.forEach((d) => rmSync(d, { recursive: true, force: true })));
  made.add(dir);
  return dir;
}

const made = new Set<string>();

/**
 * A `cpSync` filter for copies of the example app: it leaves out what runs write there, the reports (`output-*`), the
 * run history (`.agentest/`) and a report or history record still being written (`*.tmp`, renamed into place when
 * done). Other tests, and a second `npm test` on the same checkout, run suites in examples/app meanwhile: a file
 * renamed away during the copy failed it (ENOENT), and a copied history gave this test's runs another run's past.
 */
export function notRunOutput(path: string): boolean {
  const name = basename(path);
  return !name.startsWith('output-') && name !== '.agentest' && !name.endsWith('.tmp');
}

/** Writes cases as a JSONL file, one object per line, and returns its path. */
export function writeCases(dir: string, name: string, cases: readonly unknown[]): string {
  const path = join(dir, name);
  writeFileSync(path, cases.map((c) => (typeof c === 'string' ? c : JSON.stringify(c))).join('\n') + '\n');
  return path;
}

export function writeJson(dir: string, name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(value, null, 2));
  return path;
}

/**
 * A config whose agent `bot` is a bare OpenAI-compatible connector pointed at the fake server, with
 * fast retries so fault tests stay quick.
 */
export function connectorConfig(
  url: string,
  connector: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    agents: { bot: { connector: 'fake' } },
    connectors: {
      fake: {
        type: 'openai',
        model: 'fake-model',
        host: url,
        retries: 2,
        rate_limit_retries: 2,
        backoff_ms: 5,
        max_backoff_ms: 20,
        ...connector,
      },
    },
    ...extra,
  };
}
