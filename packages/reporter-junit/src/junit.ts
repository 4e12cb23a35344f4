import { isAbsolute, relative } from 'node:path';
import type { DeepReadonly, Execution } from '@agentest/kernel';
import {
  displayValue,
  failedAssertions,
  formatMetric,
  haltNote,
  interruptionNote,
  truncate,
  type ReadonlyResult,
  type Report,
  caseLogs,
} from '@agentest/report';
import { attributes, element, escapeText } from './xml.js';

export interface JUnitOptions {
  /** Source paths are made relative to this directory for `classname` and `file`. */
  cwd?: string;
  /** Add the output of passed cases to `<system-out>` too. */
  verbose?: boolean;
}

/** One `<testcase>`: a case, or one run of it when runs > 1. */
interface TestCaseEntry {
  file: string;
  xml: string;
  outcome: 'passed' | 'failure' | 'error' | 'skipped';
  seconds: number;
}

const OUTPUT_LIMIT = 4000;

/**
 * JUnit XML as GitHub, GitLab and Jenkins read it: one `<testsuite>` per source file, one `<testcase>`
 * per case (per run, named `id [run N]`, when runs > 1), the assertion message on `<failure>`, agent
 * crashes as `<error>`, timing in seconds, and the stability block as properties.
 */
export function renderJUnit(report: Report, options: JUnitOptions = {}): string {
  const bySuite = new Map<string, TestCaseEntry[]>();
  for (const result of report.results) {
    for (const entry of entries(result, report.summary.runs_per_case, options)) {
      const list = bySuite.get(entry.file) ?? [];
      list.push(entry);
      bySuite.set(entry.file, list);
    }
  }
  const timestamp = report.metadata.started_at.replace(/\.\d+Z$/, 'Z');
  const suites = [...bySuite].map(
    ([file, list]) =>
      `  <testsuite${attributes({ name: file, ...counts(list), timestamp })}>\n${list.map((e) => e.xml).join('\n')}\n  </testsuite>`,
  );
  const run = runSuite(report, timestamp);
  if (run) suites.push(run.xml);
  const all = [...bySuite.values(), run?.entries ?? []].flat();
  const name =
    report.metadata.kind === 'script' ? (report.metadata.script ?? report.summary.agent_id) : report.summary.agent_id;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name: `agentest: ${name}`, ...counts(all), time: seconds(report.summary.duration_ms), timestamp })}>`,
    runProperties(report),
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

function entries(result: ReadonlyResult, runsPerCase: number, options: JUnitOptions): TestCaseEntry[] {
  const file = sourceFile(result.source.file, options.cwd);
  const base = { classname: file, file, line: result.source.line };
  if (result.status === 'skipped' || result.runs.length === 0) {
    const message =
      result.status === 'skipped'
        ? (result.skip_reason ?? (result.todo ? 'todo' : 'skipped'))
        : (result.error ?? 'did not run');
    const child =
      result.status === 'skipped' ? element('skipped', { message }) : element('error', { message, type: 'error' });
    return [
      {
        file,
        outcome: result.status === 'skipped' ? 'skipped' : 'error',
        seconds: 0,
        xml: testcase({ name: result.id, ...base, time: '0' }, [child]),
      },
    ];
  }
  const stability = caseProperties(result);
  const perRun = runsPerCase > 1;
  return result.runs.map((run) => {
    const name = perRun ? `${result.id} [run ${run.run}]` : result.id;
    const children = [
      ...verdict(result, run),
      ...(stability ? [stability] : []),
      ...systemOut(result, run, options.verbose ?? false),
    ];
    const outcome = run.status === 'passed' ? 'passed' : run.status === 'error' ? 'error' : 'failure';
    return {
      file,
      outcome,
      seconds: run.duration_ms / 1000,
      xml: testcase({ name, ...base, time: seconds(run.duration_ms) }, children),
    };
  });
}

/**
 * The `agentest` suite, for what belongs to the run rather than a case: an error testcase for a run that
 * stopped early, interrupted or halted by a budget (a CI test view shows it where it would not show a
 * property, so the run is not green), and what the BeforeAll and AfterAll hooks printed.
 */
function runSuite({ summary }: Report, timestamp: string): { xml: string; entries: TestCaseEntry[] } | undefined {
  const stopped = stoppedEarly(summary);
  const entries: TestCaseEntry[] = stopped
    ? [
        {
          file: 'agentest',
          outcome: 'error',
          seconds: 0,
          xml: testcase({ name: stopped.note, classname: 'agentest', time: '0' }, [
            element('error', { message: stopped.note, type: stopped.type }, stopped.detail),
          ]),
        },
      ]
    : [];
  const { before_all: before = [], after_all: after = [] } = summary.hook_logs ?? {};
  const output = [...before.map((line) => `[BeforeAll] ${line}`), ...after.map((line) => `[AfterAll] ${line}`)];
  if (!entries.length && !output.length) return undefined;
  const children = [
    ...entries.map((e) => e.xml),
    ...(output.length ? [`    <system-out>${escapeText(truncate(output.join('\n'), OUTPUT_LIMIT))}</system-out>`] : []),
  ];
  return {
    entries,
    xml: `  <testsuite${attributes({ name: 'agentest', ...counts(entries), timestamp })}>\n${children.join('\n')}\n  </testsuite>`,
  };
}

/** Why the run ended before every selected case ran: a signal, or a plugin that halted it (a budget). */
function stoppedEarly(summary: Report['summary']): { note: string; type: string; detail: string } | undefined {
  const interrupted = interruptionNote(summary);
  if (interrupted)
    return {
      note: interrupted,
      type: 'interrupted',
      detail: 'The run was stopped (a signal) before every selected case ran; the results in this file are partial.',
    };
  const halted = haltNote(summary);
  if (halted)
    return {
      note: halted,
      type: 'halted',
      detail: 'The run stopped starting cases (a budget ran out); the cases it did not run are listed as skipped.',
    };
  return undefined;
}

function testcase(attrs: Record<string, string | number | undefined>, children: string[]): string {
  return children.length
    ? `    <testcase${attributes(attrs)}>\n${children.map((c) => `      ${c}`).join('\n')}\n    </testcase>`
    : `    <testcase${attributes(attrs)}/>`;
}

function verdict(result: ReadonlyResult, run: DeepReadonly<Execution>): string[] {
  if (run.status === 'passed') return [];
  if (run.status === 'error')
    return [element('error', { message: firstLine(run.error ?? 'error'), type: 'error' }, run.error)];
  const failed = failedAssertions({ ...result, assertions: run.assertions });
  const details = failed.map((a) =>
    [
      `${a.negate ? 'not ' : ''}${a.type}: ${a.message ?? 'failed'}`,
      ...(a.expected !== undefined ? [`  expected: ${truncate(displayValue(a.expected), 500)}`] : []),
      ...(a.actual !== undefined ? [`  actual: ${truncate(displayValue(a.actual), 500)}`] : []),
    ].join('\n'),
  );
  const message = run.error ?? failed[0]?.message ?? run.status;
  const type = run.status === 'timeout' ? 'timeout' : (failed[0]?.type ?? 'failed');
  return [element('failure', { message: firstLine(message), type }, details.length ? details.join('\n') : message)];
}

function systemOut(result: ReadonlyResult, run: DeepReadonly<Execution>, verbose: boolean): string[] {
  if (run.status === 'passed' && !verbose) return [];
  const parts = caseLogs(result, run);
  if (run.output !== undefined) parts.push(`output: ${displayValue(run.output)}`);
  else if (result.output !== undefined && result.runs.length === 1)
    parts.push(`output: ${displayValue(result.output)}`);
  return parts.length ? [`<system-out>${escapeText(truncate(parts.join('\n'), OUTPUT_LIMIT))}</system-out>`] : [];
}

/**
 * The stability block, the flakiness from the run history and the sequential test's stop, as properties; none
 * without any.
 */
function caseProperties(result: ReadonlyResult): string | undefined {
  const props: Record<string, string | number> = {};
  const s = result.stability;
  if (s)
    Object.assign(props, {
      'stability.pass_rate': s.pass_rate.toFixed(1),
      'stability.runs': s.runs,
      'stability.passed': s.passed,
      'stability.class': s.stability_class,
      'stability.pass_hat_k': s.pass_hat_k.toFixed(4),
      'stability.avg_duration_ms': Math.round(s.avg_duration_ms),
    });
  const flaky = result.history?.flaky;
  if (flaky)
    Object.assign(props, {
      flaky: 'true',
      'flaky.flips': `${flaky.flips}/${flaky.transitions}`,
      'flaky.flip_rate': flaky.flip_rate,
      'flaky.flip_rate_ci': flaky.flip_rate_ci.join('-'),
    });
  if (result.history?.recent.length) props['history.recent'] = result.history.recent.join(' ');
  const policy = result.run_policy;
  if (policy)
    Object.assign(props, {
      'sequential.runs': `${policy.runs}/${policy.max}`,
      ...(policy.decision ? { 'sequential.decision': policy.decision } : {}),
      ...(policy.reason ? { 'sequential.reason': policy.reason } : {}),
    });
  if (!Object.keys(props).length) return undefined;
  return `<properties>${Object.entries(props)
    .map(([name, value]) => element('property', { name, value }))
    .join('')}</properties>`;
}

function runProperties({ summary }: Report): string {
  const props: [string, string][] = [
    ['agent', summary.agent_id],
    ['connector', summary.connector],
    ['runs_per_case', String(summary.runs_per_case)],
  ];
  for (const [name, value] of Object.entries(summary.metrics ?? {}))
    props.push([`metric.${name}`, formatMetric(name, value)]);
  if (summary.interrupted) props.push(['interrupted', 'true'], ['not_run', String(summary.not_run ?? 0)]);
  if (summary.halted) props.push(['halted', summary.halted], ['not_run', String(summary.not_run ?? 0)]);
  if (summary.usage)
    props.push(
      ['usage.calls', String(summary.usage.calls)],
      ['usage.total_tokens', String(summary.usage.total_tokens)],
      ['usage.cost_usd', String(summary.usage.cost_usd)],
    );
  if (summary.verdict)
    props.push(['verdict', summary.verdict.can_ship ? 'SHIP IT' : `DO NOT SHIP: ${summary.verdict.issues.join('; ')}`]);
  if (summary.flaky?.length) props.push(['flaky', summary.flaky.map((f) => f.id).join(' ')]);
  if (summary.comparison) {
    const { baseline, verdict, reason, regressed = [], fixed = [] } = summary.comparison;
    props.push(
      ['baseline', baseline],
      ['baseline.verdict', verdict],
      ['baseline.reason', reason],
      ['baseline.regressed', regressed.join(' ')],
      ['baseline.fixed', fixed.join(' ')],
    );
  }
  return `  <properties>\n${props.map(([name, value]) => `    ${element('property', { name, value })}`).join('\n')}\n  </properties>`;
}

function counts(list: TestCaseEntry[]): Record<string, string | number> {
  return {
    tests: list.length,
    failures: list.filter((e) => e.outcome === 'failure').length,
    errors: list.filter((e) => e.outcome === 'error').length,
    skipped: list.filter((e) => e.outcome === 'skipped').length,
    time: list.reduce((sum, e) => sum + e.seconds, 0).toFixed(3),
  };
}

function sourceFile(file: string, cwd = process.cwd()): string {
  return isAbsolute(file) ? relative(cwd, file) || file : file;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function firstLine(text: string): string {
  return truncate(text.split('\n')[0] ?? text, 500);
}
