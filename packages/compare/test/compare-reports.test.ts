import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Status } from '@agentest/kernel';
import { compareReports, type CaseRecord, type ComparisonInput } from '../src/index.js';

type CaseSpec = Status[] | { runs: Status[]; messages?: string[]; ms?: number[]; tokens?: number[] };

/** A report with the given cases: each a list of run statuses, or runs with messages and latencies. */
function report(cases: Record<string, CaseSpec>, extra: Partial<ComparisonInput> = {}): ComparisonInput {
  const map = new Map<string, CaseRecord>();
  for (const [id, spec] of Object.entries(cases)) {
    const { runs, messages = [], ms = [], tokens = [] } = Array.isArray(spec) ? { runs: spec } : spec;
    const status = runs.find((s) => s !== 'passed') ?? 'passed';
    map.set(id, {
      id,
      status,
      messages: status === 'passed' ? [] : messages,
      runs: runs.map((s, i) => ({
        status: s,
        ...(ms[i] !== undefined ? { durationMs: ms[i] } : {}),
        ...(tokens[i] !== undefined ? { tokens: tokens[i] } : {}),
      })),
    });
  }
  return {
    file: '/r.jsonl',
    format: 'jsonl',
    suite: 'tests/inputs.jsonl',
    kind: 'agent',
    runsPerCase: 1,
    complete: true,
    cases: map,
    ...extra,
  };
}

const repeat = <T>(n: number, make: (i: number) => [string, T]) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => make(i)));
const P: Status[] = ['passed'];
const F: Status[] = ['failed'];

test('one run a side: 6 regressed and 0 fixed is a regression by exact McNemar (p 0.031), exit 1', () => {
  const base = report({ ...repeat(6, (i) => [`R${i}`, P]), ...repeat(10, (i) => [`S${i}`, P]) });
  const head = report({
    ...repeat(6, (i) => [`R${i}`, { runs: F, messages: [`wrong answer ${i}`] }]),
    ...repeat(10, (i) => [`S${i}`, P]),
  });
  const result = compareReports(base, head);
  assert.equal(result.verdict.method, 'mcnemar');
  assert.equal(result.verdict.verdict, 'regressed');
  assert.equal(result.verdict.mcnemar!.p, 0.03125);
  assert.equal(result.exitCode, 1);
  assert.equal(result.counts.regressed, 6);
  assert.equal(result.counts.still_passing, 10);
  assert.match(result.verdict.reason, /6 regressed, 0 fixed of 16 cases: exact McNemar p = 0\.0313 < α 0\.05/);
  const first = result.cases[0]!;
  assert.equal(first.category, 'regressed');
  assert.deepEqual(first.head!.messages, ['wrong answer 0']);
  assert.equal(first.test, undefined, 'no per-case test with one run a side');
});

test('one run a side: 5 regressed and 0 fixed (p 0.0625) is not significant, exit 0', () => {
  const base = report(repeat(20, (i) => [`C${i}`, P]));
  const head = report(repeat(20, (i) => [`C${i}`, i < 5 ? F : P]));
  const result = compareReports(base, head);
  assert.equal(result.verdict.verdict, 'no_significant_change');
  assert.equal(result.verdict.mcnemar!.p, 0.0625);
  assert.equal(result.exitCode, 0);
});

test('one run of one case is never a significant change', () => {
  const result = compareReports(report({ A: P }), report({ A: F }));
  assert.equal(result.counts.regressed, 1);
  assert.equal(result.verdict.verdict, 'no_significant_change');
  assert.equal(result.verdict.mcnemar!.p, 1);
  assert.equal(result.exitCode, 0);
});

test('fixed cases outnumbering regressed ones significantly: improved, exit 0', () => {
  const result = compareReports(report(repeat(8, (i) => [`C${i}`, F])), report(repeat(8, (i) => [`C${i}`, P])));
  assert.equal(result.verdict.verdict, 'improved');
  assert.equal(result.counts.fixed, 8);
  assert.equal(result.exitCode, 0);
});

test('several runs a side: the paired bootstrap decides; Fisher after Holm flags cases without deciding', () => {
  const runs = (passes: number): Status[] => Array.from({ length: 10 }, (_, i) => (i < passes ? 'passed' : 'failed'));
  const base = report(
    repeat(30, (i) => [`C${i}`, runs(10)]),
    { runsPerCase: 10 },
  );
  const head = report(
    repeat(30, (i) => [`C${i}`, runs(i === 0 ? 2 : i < 10 ? 6 : 10)]),
    { runsPerCase: 10 },
  );
  const result = compareReports(base, head);
  assert.equal(result.verdict.method, 'bootstrap');
  assert.equal(result.verdict.verdict, 'regressed');
  assert.ok(result.verdict.difference.upper < 0);
  assert.ok(Math.abs(result.verdict.difference.estimate - -(8 + 9 * 4) / 10 / 30) < 1e-12);
  assert.equal(result.exitCode, 1);
  const c0 = result.cases.find((c) => c.id === 'C0')!;
  assert.equal(c0.test!.flag, 'worse', `C0 adjusted p ${c0.test!.adjusted}`);
  assert.ok(
    Math.abs(c0.test!.adjusted - 30 * c0.test!.twoSided) < 1e-12,
    'smallest p is multiplied by the number of tests',
  );
  const c1 = result.cases.find((c) => c.id === 'C1')!;
  assert.equal(c1.test!.flag, undefined, '10/10 → 6/10 does not survive Holm over 30 cases');
  assert.equal(c1.category, 'regressed');
  assert.deepEqual(c1.head!.interval && [c1.head!.passRate, Number(c1.head!.interval.lower.toFixed(3))], [0.6, 0.313]);
});

test('the margin tolerates a small drop; without it the same drop is a regression', () => {
  const runs = (passes: number): Status[] => Array.from({ length: 5 }, (_, i) => (i < passes ? 'passed' : 'failed'));
  const base = report(repeat(200, (i) => [`C${i}`, runs(5)]));
  const head = report(repeat(200, (i) => [`C${i}`, runs(i % 10 === 0 ? 4 : 5)]));
  assert.equal(compareReports(base, head).verdict.verdict, 'regressed');
  const tolerant = compareReports(base, head, { margin: 0.05 });
  assert.equal(tolerant.verdict.verdict, 'no_significant_change');
  assert.match(
    tolerant.verdict.reason,
    /pass rate −2\.0 points, 95% interval \[−\d\.\d, −\d\.\d\]: not entirely below −5\.0 points \(the margin\)/,
  );
  assert.equal(tolerant.exitCode, 0);
});

test('new, removed and skipped cases are listed and left out of the statistics', () => {
  const base = report({ A: P, B: P, gone: F, S: ['skipped'] });
  const head = report({ A: P, B: F, added: F, S: P });
  const result = compareReports(base, head);
  assert.deepEqual(
    result.cases.map((c) => `${c.id}:${c.category}`),
    ['B:regressed', 'added:new', 'gone:removed', 'S:skipped', 'A:still_passing'],
  );
  assert.equal(result.verdict.paired, 2);
});

test('reports that cannot be compared: REPORTS_NOT_COMPARABLE with the reason', () => {
  const cases: [ComparisonInput, ComparisonInput, RegExp][] = [
    [
      report({ A: P }),
      report({ A: P }, { kind: 'script', suite: 'tests/inputs.jsonl' }),
      /base is an agent suite and head a script suite/,
    ],
    [
      report({ A: P }),
      report({ A: P }, { suite: 'tests/other.jsonl' }),
      /different suites: base ran "tests\/inputs\.jsonl" and head ran "tests\/other\.jsonl"; if the suite moved or was renamed, pass --allow-suite-change/,
    ],
    [report({ A: P, B: P }), report({ X: P }), /no case id in common: base has 2 cases \(A, B\), head has 1 \(X\)/],
    [report({ A: ['skipped'] }), report({ A: P }), /no case ran on both sides/],
  ];
  for (const [base, head, message] of cases) {
    assert.throws(
      () => compareReports(base, head),
      (error: Error & { code?: string }) => error.code === 'REPORTS_NOT_COMPARABLE' && message.test(error.message),
    );
  }
  const moved = compareReports(report({ A: P }), report({ A: P }, { suite: 'tests/other.jsonl' }), {
    allowSuiteChange: true,
  });
  assert.match(moved.notes[0]!, /named differently/);
  assert.equal(
    compareReports(report({ A: P }), report({ A: P }, { suite: '/home/ci/app/tests/inputs.jsonl' })).notes.length,
    0,
    'an absolute path of the same suite',
  );
});

test('latency and tokens: medians with bootstrap intervals; a shift in every case is a change', () => {
  const base = report(repeat(20, (i) => [`C${i}`, { runs: P, ms: [1000 + i * 10], tokens: [200] }]));
  const head = report(repeat(20, (i) => [`C${i}`, { runs: P, ms: [1400 + i * 10], tokens: [200] }]));
  const result = compareReports(base, head);
  const latency = result.metrics.find((m) => m.metric === 'latency_ms')!;
  assert.deepEqual(
    [latency.baseMedian, latency.headMedian, latency.difference, latency.change],
    [1095, 1495, 400, 'up'],
  );
  const tokens = result.metrics.find((m) => m.metric === 'tokens')!;
  assert.equal(tokens.change, 'none');
  assert.equal(
    result.metrics.find((m) => m.metric === 'cost'),
    undefined,
    'not recorded, not shown',
  );
  assert.equal(result.exitCode, 0, 'metrics never set the exit code');
});

test('--detect: a small suite where nothing changed cannot rule out a 5-point drop; a large one can', () => {
  const small = compareReports(report(repeat(3, (i) => [`C${i}`, P])), report(repeat(3, (i) => [`C${i}`, P])), {
    detect: 0.05,
  });
  assert.equal(small.detection!.decided, false);
  assert.ok(small.detection!.needed.cases > 1000, `needs ${small.detection!.needed.cases}`);
  const large = compareReports(report(repeat(2000, (i) => [`C${i}`, P])), report(repeat(2000, (i) => [`C${i}`, P])), {
    detect: 0.05,
  });
  assert.equal(large.detection!.decided, true);
  assert.ok(large.detection!.needed.cases <= 2000);
  const runs = (passes: number): Status[] => Array.from({ length: 3 }, (_, i) => (i < passes ? 'passed' : 'failed'));
  const noisy = compareReports(
    report(repeat(40, (i) => [`C${i}`, runs(i % 2 ? 2 : 3)])),
    report(repeat(40, (i) => [`C${i}`, runs(i % 3 ? 2 : 3)])),
    { detect: 0.05 },
  );
  assert.equal(noisy.detection!.decided, false);
  assert.ok(noisy.detection!.runs === null || noisy.detection!.runs! > 3, 'more runs, or more cases');
});

test('a median moved in every case of a handful is no change until a unanimous move could not be chance (6 cases at 95%)', () => {
  const shifted = (n: number) =>
    compareReports(
      report(repeat(n, (i) => [`C${i}`, { runs: P, ms: [1000 + i * 10] }])),
      report(repeat(n, (i) => [`C${i}`, { runs: P, ms: [1400 + i * 10] }])),
    ).metrics.find((m) => m.metric === 'latency_ms')!;
  for (const n of [2, 3, 5]) {
    const latency = shifted(n);
    assert.ok(latency.lower > 0, `the interval alone excludes 0 with ${n} cases`);
    assert.equal(latency.change, 'none', `${n} cases`);
  }
  assert.equal(shifted(6).change, 'up');
});
