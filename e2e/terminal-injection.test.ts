/**
 * Terminal injection: text from a run (agent output with `-v`, error bodies, assertion messages,
 * case names, hook logs) reaches the console escaped: no escape sequence (screen clear, OSC title,
 * OSC 8 link), no bidi override, no line a GitHub runner would execute as a workflow command. The
 * files keep the raw text.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatCaseDetail, formatCaseLine, formatShipVerdict, formatSuiteHeader } from '@agentest/plugin-kit';
import { terminalSafe } from '@agentest/report';
import { formatError } from '../packages/cli/src/print-error.js';
import { everyReporter } from './helpers/every-reporter.js';
import { workspace } from './helpers/workspace.js';
import { runScenario } from '../packages/report/test/scenario.js';

const CLEAR = '\x1b[2J\x1b[H';
const TITLE = '\x1b]0;pwned\x07';
const LINK = '\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\';
const BIDI = 'invoice\u202Etxt.exe\u2066';
const COMMAND = '\n::add-mask::hunter2\n  ::error title=fake::all good';
const HOSTILE = `${CLEAR}${TITLE}${LINK}${BIDI}${COMMAND}`;

/** What a terminal or a runner would act on. */
function dangers(text: string): string[] {
  const found: string[] = [];
  if (/[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(text)) found.push('control character');
  if (/[\u202a-\u202e\u2066-\u2069]/.test(text)) found.push('bidi override');
  if (/^\s*::/m.test(text)) found.push('workflow command');
  return found;
}

test('the console shows hostile text escaped; the files keep it raw', async () => {
  const dir = workspace('terminal-injection');
  const reporters = everyReporter(dir, { verbose: true });
  await runScenario(
    [
      {
        id: `T1${TITLE}`,
        name: `name ${BIDI}`,
        input: `input ${CLEAR}`,
        behaviour: () => ({ output: `output ${HOSTILE}`, logs: [`log ${HOSTILE}`] }),
      },
      { id: 'T2', behaviour: () => ({ status: 'error', error: `server said: ${HOSTILE}` }) },
      {
        id: 'T3',
        assert: [{ type: 'contains', value: `absent ${LINK}` }],
        behaviour: () => ({ output: `nothing ${BIDI}` }),
      },
      { id: 'T4', skip: `skipped because ${HOSTILE}` },
    ],
    reporters.plugins,
    { thresholds: { pass_rate: 1 } },
  );
  const { console: printed, ...files } = reporters.outputs();
  assert.deepEqual(dangers(printed!), [], 'nothing in the console output acts on the terminal or the runner');
  assert.match(printed!, /\\x1b\[2J/, 'the screen clear is shown escaped');
  assert.match(printed!, /\\x1b\]0;pwned\\x07/, 'the title sequence is shown escaped');
  assert.match(printed!, /\\u202e/, 'the bidi override is shown escaped');
  assert.match(printed!, /server said: /);
  assert.match(printed!, /\\::add-mask::hunter2/, 'a workflow command at a line start is neutralised');
  assert.ok(
    files['report.json']!.includes('\\u001b]0;pwned\\u0007'),
    'report.json keeps the raw text (as JSON escapes)',
  );
  assert.ok(files['report.json']!.includes('\u202E'), 'report.json keeps the bidi override');
  assert.ok(files['run.jsonl']!.includes('\\n::add-mask::hunter2'), 'the event stream keeps the raw text');
});

test('terminalSafe keeps ordinary text as it is and escapes only what a terminal would act on', () => {
  const plain = 'Résumé: 東京 ✓ tabs\tand\nnewlines; a::b stays';
  assert.equal(terminalSafe(plain), plain);
  assert.equal(terminalSafe('a\x1b[31mred\r\x9b'), 'a\\x1b[31mred\\x0d\\x9b');
  assert.equal(terminalSafe('ok\n  ::warning::x'), 'ok\n  \\::warning::x');
});

test("the kit's print format escapes names, errors, details and issues", () => {
  const lines = [
    formatSuiteHeader(`suite${TITLE}`, `http://x${CLEAR}`, false),
    formatCaseLine({ elapsed_ms: 5 }, { id: `C1${BIDI}`, name: `name${TITLE}` }, 'FAIL', false),
    ...formatCaseDetail({ error: `boom${COMMAND}` }, { expected_keywords: [] }, false),
    ...formatCaseDetail(
      { structure_ok: true, failure_details: [`detail${LINK}`], keyword_hits: [`kw${BIDI}`], keyword_hit_rate: 1 },
      { expected_keywords: [] },
      false,
    ),
    ...formatShipVerdict({ can_ship: false, issues: [`issue${COMMAND}`] }, false),
  ].join('\n');
  assert.deepEqual(dangers(lines), []);
});

test('CLI error messages quoting a server body are escaped', () => {
  assert.deepEqual(dangers(formatError(new Error(`HTTP 500: ${HOSTILE}`), {})), []);
});
