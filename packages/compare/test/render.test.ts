import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { Status } from '@agentest/kernel';
import {
  compareReports,
  GITHUB_COMMENT_LIMIT,
  renderConsole,
  renderHtml,
  renderJson,
  renderMarkdown,
  type CaseRecord,
  type ComparisonInput,
} from '../src/index.js';

function report(statuses: Record<string, Status>, message = 'expected a greeting'): ComparisonInput {
  const cases = new Map<string, CaseRecord>(
    Object.entries(statuses).map(([id, status]) => [
      id,
      { id, status, runs: [{ status, durationMs: 100 }], messages: status === 'passed' ? [] : [message] },
    ]),
  );
  return {
    file: 'run.jsonl',
    format: 'jsonl',
    suite: 'tests/inputs.jsonl',
    kind: 'agent',
    runsPerCase: 1,
    complete: true,
    cases,
  };
}

const many = (n: number, status: Status) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`case-with-a-long-identifier-${i}`, status]));

test('Markdown stays within GitHub’s comment limit and says how many rows it left out', () => {
  const comparison = compareReports(report(many(3000, 'passed')), report(many(3000, 'failed'), 'x'.repeat(400)));
  const markdown = renderMarkdown(comparison);
  assert.ok(markdown.length <= GITHUB_COMMENT_LIMIT, `${markdown.length} characters`);
  assert.match(markdown, /^## ❌ agentest compare: REGRESSED/);
  assert.match(
    markdown,
    /…and \d+ more changed cases not shown: the comment would pass GitHub's 65,536-character limit/,
  );
  assert.match(markdown, /Verdict by one run per side/, 'the footer survives the cut');
  const small = renderMarkdown(compareReports(report({ A: 'passed' }), report({ A: 'failed' })));
  assert.doesNotMatch(small, /not shown/);
});

test('HTML: one self-contained page whose policy admits only its own stylesheet; user text is escaped', () => {
  const hostile = '<script>alert(1)</script>';
  const html = renderHtml(
    compareReports(report({ [hostile]: 'passed' }), report({ [hostile]: 'failed' }, `<img src=x onerror=alert(1)>`)),
  );
  assert.doesNotMatch(html, /<script>alert|<img src=x/);
  assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
  const hash = createHash('sha256').update(style).digest('base64');
  assert.match(
    html,
    new RegExp(
      `content="default-src 'none'; style-src 'sha256-${hash.replace(/[+/]/g, '\\$&')}'; base-uri 'none'; form-action 'none'"`,
    ),
  );
  assert.doesNotMatch(html, /<script|https?:\/\//);
});

test('console: colour only when asked; JSON keeps every case and statistic', () => {
  const comparison = compareReports(report({ A: 'passed', B: 'failed' }), report({ A: 'failed', B: 'passed' }));
  assert.doesNotMatch(renderConsole(comparison), /\x1b\[/);
  assert.match(renderConsole(comparison, { colour: true }), /\x1b\[31m/);
  assert.match(
    renderConsole(comparison),
    /A +✗ regressed +passed +failed +expected a greeting\n +B +✓ fixed +failed +passed +was: expected a greeting/,
  );
  const json = JSON.parse(renderJson(comparison));
  assert.deepEqual(
    json.cases.map((c: { id: string }) => c.id),
    ['A', 'B'],
  );
  assert.equal(json.verdict.mcnemar.p, 1);
});
