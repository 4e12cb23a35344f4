/**
 * A third-party reporter: the run's outcome as a Slack message (Block Kit), written to a
 * `.slack.json` file that a CI step can post with `curl -d @file $SLACK_WEBHOOK_URL`.
 *
 * Load it from the config by path:  reporters: [['./reporters/slack-reporter.ts', { channel: '#agents' }]]
 * It uses nothing but agentest's public API: `defineReporter` and the event types, and the report
 * model's helpers (`@agentest/report`) so that it cuts text and writes its file as agentest's own
 * reporters do.
 */
import { resolve } from 'node:path';
import { oneLine, truncate, writeFileAtomic } from '@agentest/report';
import {
  defineReporter,
  type AgentestPlugin,
  type DeepReadonly,
  type ResultEvent,
  type StartEvent,
  type SummaryEvent,
} from '@agentest/test';

export interface SlackReporterOptions {
  /** Where to write the payload, relative to `cwd` (default `agentest-report.slack.json`). */
  output?: string;
  /** Given by agentest: the directory the run started in. */
  cwd?: string;
  /** Given by agentest: `-v`; lists passed cases too. */
  verbose?: boolean;
  /** Added to the payload for webhooks that accept a channel override. */
  channel?: string;
  /** How many failing cases to name (Slack sections hold 3000 characters). */
  maxFailures?: number;
}

type Failure = { id: string; status: string; reason: string };

export default function slackReporter(options: SlackReporterOptions = {}): AgentestPlugin {
  if (options.channel !== undefined && typeof options.channel !== 'string')
    throw new TypeError('slack reporter: "channel" must be a string like "#agents"');
  const output = resolve(options.cwd ?? process.cwd(), options.output ?? 'agentest-report.slack.json');
  const maxFailures = options.maxFailures ?? 10;
  let start: DeepReadonly<StartEvent> | undefined;
  let failures: Failure[] = [];
  let passedIds: string[] = [];

  return defineReporter({
    name: 'slack',
    onStart(event) {
      // A reporter may hear several runs (watch mode): start afresh each time.
      start = event;
      failures = [];
      passedIds = [];
    },
    onResult(event: DeepReadonly<ResultEvent>) {
      // Keep only what the message needs, not whole results: memory stays small on long runs.
      if (event.status === 'passed') passedIds.push(event.id);
      else if (event.status !== 'skipped')
        failures.push({ id: event.id, status: event.status, reason: event.error ?? event.status });
    },
    async onSummary(summary) {
      const payload = {
        ...(options.channel ? { channel: options.channel } : {}),
        ...message(summary, start, failures, passedIds, maxFailures, options.verbose ?? false),
      };
      // Atomic: a reader never sees half a file, and a failed write leaves the previous one whole.
      await writeFileAtomic(output, `${JSON.stringify(payload, null, 2)}\n`);
    },
  });
}

function message(
  summary: DeepReadonly<SummaryEvent>,
  start: DeepReadonly<StartEvent> | undefined,
  failures: Failure[],
  passedIds: string[],
  maxFailures: number,
  verbose: boolean,
) {
  const failed = summary.failed + summary.errors + summary.timeouts;
  const ok = failed === 0 && summary.verdict?.can_ship !== false;
  const title = `${ok ? '✅ Agent tests passed' : '❌ Agent tests failed'}: ${summary.agent_id}`;
  const field = (label: string, value: string | number) => ({ type: 'mrkdwn', text: `*${label}*\n${value}` });
  const blocks: object[] = [
    { type: 'header', text: { type: 'plain_text', text: truncate(title, 150), emoji: true } },
    {
      type: 'section',
      fields: [
        field('Passed', `${summary.passed} / ${summary.total}`),
        field('Failed', failed),
        field('Pass rate', `${summary.overall_pass_rate.toFixed(1)}%`),
        field('Duration', `${(summary.duration_ms / 1000).toFixed(1)}s`),
        ...(summary.runs_per_case > 1 ? [field('Unstable cases', summary.unstable_cases ?? 0)] : []),
        ...(summary.verdict ? [field('Verdict', summary.verdict.can_ship ? 'SHIP IT' : 'DO NOT SHIP')] : []),
      ],
    },
  ];
  if (failures.length) {
    const lines = failures
      .slice(0, maxFailures)
      .map((f) => `• \`${escape(f.id)}\` ${f.status}: ${escape(truncate(oneLine(f.reason), 200))}`);
    if (failures.length > maxFailures) lines.push(`…and ${failures.length - maxFailures} more`);
    blocks.push(
      { type: 'divider' },
      { type: 'section', text: { type: 'mrkdwn', text: truncate(`*Failures*\n${lines.join('\n')}`, 3000) } },
    );
  }
  if (verbose && passedIds.length)
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: truncate(`*Passed*\n${passedIds.map(escape).join(', ')}`, 3000) },
    });
  for (const issue of summary.verdict?.issues ?? [])
    blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: `⚠️ ${escape(issue)}` }] });
  const where = [start?.suite, summary.connector, summary.completed_at].filter(Boolean).map((s) => escape(String(s)));
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: where.join(' · ') }] });
  // `text` is what notifications and screen readers show.
  return { text: `${title} (${summary.passed}/${summary.total} passed)`, blocks };
}

/** Slack's mrkdwn treats only these three characters specially. */
function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
