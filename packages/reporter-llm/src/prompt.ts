import type { Message } from '@agentest/kernel';
import { safeStringify } from '@agentest/common';
import type { ReportFormat } from './reply.js';
import type { ReportPayload } from './trim.js';

const FORMAT_WORDS: Record<ReportFormat, string> = {
  html: 'one complete, self-contained HTML document (inline CSS, no external resources, no scripts)',
  markdown: 'GitHub-flavoured Markdown',
  json: 'one JSON object',
  text: 'plain text',
};

/** The instructions that make a reporter agent's claims checkable against the run. */
export function systemPrompt(format: ReportFormat): string {
  return [
    'You write test reports for AI agent test runs. The user message is a JSON object: `report` holds the run',
    '(summary, environment, results, metadata), `format` the output format, `options` what to include.',
    `Reply with the report only, as ${FORMAT_WORDS[format]}; no preface, no closing remarks.`,
    'Every claim about the run must cite the ids of the cases it rests on as evidence, e.g. "3 cases time out (T003, T007, T012)".',
    'Use only the numbers and cases in the report; never invent a case, a count or a cause.',
    'If `report.metadata.trimmed` is present, the report was shortened to fit: say so in the report, and state the totals from `summary`.',
  ].join('\n');
}

/** The seed's reporter-agent input: one user message holding `{report, format, options}` as JSON. */
export function reporterMessages(report: ReportPayload, format: ReportFormat, verbose: boolean): Message[] {
  const input = { report, format, options: { verbose, include_outputs: verbose, include_inputs: verbose } };
  return [
    { role: 'system', content: systemPrompt(format) },
    { role: 'user', content: safeStringify(input)! },
  ];
}
