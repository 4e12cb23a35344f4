import { AgentestError, defineReporter, type Agent, type AgentestPlugin, type Reporter } from '@agentest/kernel';
import { errorMessage } from '@agentest/kernel/errors';
import { redactText } from '@agentest/kernel/secrets';
import { buildTestContext } from '@agentest/plugin-agent';
import {
  ReportCollector,
  parseReporterOptions,
  reporterOptionsSchema,
  resolveOutputPath,
  writeFileAtomic,
  type Report,
} from '@agentest/report';
import * as z from 'zod';
import { Fallback } from './fallback.js';
import { reporterMessages } from './prompt.js';
import { documentFromReply, type ReportFormat } from './reply.js';
import { trimReport } from './trim.js';

/** The plugin's name, and the reporter's in messages. */
export const PLUGIN_NAME = 'agentest:llm';

const isReporter = (v: unknown) =>
  typeof v === 'object' && v !== null && typeof (v as Reporter).name === 'string' && !('apply' in v);

const optionsSchema = reporterOptionsSchema.extend({
  /** Resolves the reporter agent when the run ends (the CLI resolves `-r <agent>` through the kernel). */
  agent: z.custom<() => Promise<Agent>>(
    (v) => typeof v === 'function',
    'must be a function returning a Promise<Agent>',
  ),
  format: z.enum(['html', 'markdown', 'json', 'text']),
  output: z.string().min(1, 'must not be empty'),
  /**
   * The built-in reporter for the format, as a plain reporter object (`createReporter` of
   * `@agentest/reporter-markdown` and the others): it writes first, and its report stays when the agent fails.
   */
  fallback: z.custom<Reporter>(isReporter, "must be a plain reporter object (a format package's createReporter())"),
  /** The report sent to the agent is trimmed to this many characters of JSON. */
  maxInputChars: z.number().int().min(2000).optional(),
  /** How long the agent may take to answer. */
  timeoutMs: z.number().int().positive().optional(),
});

export type LlmReporterOptions = z.input<typeof optionsSchema>;

const DEFAULT_MAX_INPUT_CHARS = 100_000;
const DEFAULT_TIMEOUT_MS = 5 * 60_000;

/**
 * The reporter agent (`-r <agent>`): after the run an agent turns the report into the document.
 * The built-in report for the format is written first and stays if the agent throws, times out or
 * answers nothing usable; then the run ends with exit code 3 (REPORTER_FAILED).
 */
export default function llmReporter(rawOptions: LlmReporterOptions): AgentestPlugin {
  let options: z.infer<typeof optionsSchema>;
  let fallback: Fallback;
  const collector = new ReportCollector();

  const plugin = defineReporter({
    name: PLUGIN_NAME,
    // The fallback's write, the agent's own timeout and this write must all fit before the kernel gives up.
    get timeoutMs() {
      return (options?.timeoutMs ?? DEFAULT_TIMEOUT_MS) + (fallback?.timeoutMs ?? 0) + 60_000;
    },
    onSetup(plan) {
      fallback.reset();
      void fallback.call('onSetup', plan);
    },
    async onStart(event) {
      await fallback.call('onStart', event);
      collector.onStart(event);
    },
    onCaseStart: (event) => fallback.call('onCaseStart', event),
    onRunResult: (event) => fallback.call('onRunResult', event),
    async onResult(event) {
      await fallback.call('onResult', event);
      collector.onResult(event);
    },
    async onSummary(event) {
      // The built-in document is whole before the agent is asked, whatever the agent then does.
      await fallback.call('onSummary', event);
      await writeWithAgent(options, collector.build(event));
    },
    close: () => fallback.call('close'),
  });

  return {
    ...plugin,
    apply(kernel) {
      options = parseReporterOptions(PLUGIN_NAME, optionsSchema, rawOptions);
      // A fallback that fails is reported on its own, as any reporter is; the agent is still asked.
      fallback = new Fallback(options.fallback, (error) => kernel.reportError(error));
      plugin.apply(kernel);
    },
  };
}

/** Asks the reporter agent for the document and writes it over the fallback's; a failure says the fallback's stays. */
async function writeWithAgent(options: z.infer<typeof optionsSchema>, report: Report): Promise<void> {
  const output = resolveOutputPath(options, options.output);
  report.metadata.output_file = output;
  let agentId = 'reporter agent';
  try {
    const agent = await options.agent();
    agentId = `reporter agent "${agent.id}"`;
    const payload = trimReport(report, options.maxInputChars ?? DEFAULT_MAX_INPUT_CHARS);
    const reply = await ask(
      agent,
      reporterMessages(payload, options.format, options.verbose ?? false),
      options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    );
    // The reporter agent's own reply goes through the same redaction as every event it was given.
    await writeFileAtomic(output, redactText(documentFromReply(reply, options.format as ReportFormat)));
  } catch (error) {
    throw new AgentestError(
      'REPORTER_FAILED',
      `${agentId} failed: ${errorMessage(error)}; the built-in ${options.format} report stays at ${output}`,
      { cause: error },
    );
  }
}

async function ask(agent: Agent, messages: Parameters<Agent['run']>[0], timeoutMs: number) {
  const controller = new AbortController();
  const context = buildTestContext({ flags: {}, chatId: 'agentest-report', assistantId: agent.id });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`no reply within ${timeoutMs} ms`));
      reject(new Error(`no reply within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    // The seed's call options for the reporter agent: no chat history, no streamed output.
    return await Promise.race([
      agent.run(messages, context, controller.signal, { options: { skip: { history: true, output: true } } }),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export { trimReport, TRIM_STRATEGY, type ReportPayload } from './trim.js';
export { documentFromReply, type ReportFormat } from './reply.js';
export { STRICT_CSP, withStrictCsp } from './strict-csp.js';
export { systemPrompt, reporterMessages } from './prompt.js';
