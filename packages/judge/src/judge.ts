import { createHash } from 'node:crypto';
import type { Agent, AgentRef, JudgeRecord, JudgeSample, Message, TokenUsage } from '@agentest/kernel';
import { callHelper, HelperError, resolveHelper, type HelperReply } from './call-helper.js';
import { judgePayload, type JudgeSubject } from './judge-payload.js';
import { JUDGE_SYSTEM_PROMPT } from './judge-prompt.js';
import type { HelperRef } from './helper-ref.js';
import type { JudgeSettings } from './judge-settings.js';
import { readVerdict } from './judge-verdict.js';

/** One judgement to make: the subject, how to judge it, and the run it belongs to. */
export interface JudgeRequest extends JudgeSubject {
  settings: JudgeSettings;
  resolveAgent(ref: AgentRef): Promise<Agent>;
  signal: AbortSignal;
  /** Prefix of the judge's chat ids (the case and run); each sample gets its own. */
  chatId: string;
}

/** The verdict (or why there is none), with the record of how it was reached. */
export type JudgeOutcome =
  | { passed: boolean; reason: string; response: Record<string, unknown>; record: JudgeRecord }
  | { error: string; record: JudgeRecord };

/**
 * Asks the judge `samples` times at once and takes the majority. A verdict needs every sample to
 * answer with a readable verdict and a strict majority: a sample that could not be reached, timed
 * out or answered something unreadable makes the whole judgement an error quoting that reply, and
 * so does a tie. Neither ever becomes a pass or a failure.
 */
export async function judge(request: JudgeRequest): Promise<JudgeOutcome> {
  const { settings } = request;
  const messages = judgeMessages(request);
  const started = performance.now();
  let agent: Agent;
  try {
    agent = await judgeAgent(settings.ref, request.resolveAgent);
  } catch (error) {
    if (!(error instanceof HelperError)) throw error;
    return { error: `judge (${settings.ref.use}): ${error.message}`, record: unresolved(request, messages, error) };
  }
  const samples = await Promise.all(
    Array.from({ length: settings.samples }, (_, i) => askOnce(request, agent, messages, i)),
  );
  const duration_ms = Math.round((performance.now() - started) * 100) / 100;
  const passed = samples.filter((s) => s.sample.passed === true).length;
  const failed = samples.filter((s) => s.sample.passed === false).length;
  const errors = samples.length - passed - failed;
  const majority = Math.max(passed, failed);
  const models = [...new Set(samples.map((s) => s.model).filter(Boolean))];
  const usage = sumUsage(samples.map((s) => s.usage));
  const record: JudgeRecord = {
    use: settings.ref.use,
    ...(models.length ? { model: models.join(', ') } : {}),
    temperature: settings.temperature,
    seed: settings.seed,
    prompt_hash: promptHash(messages),
    samples: settings.samples,
    votes: { passed, failed, errors },
    agreement:
      errors || passed === failed
        ? `no majority (${passed} pass, ${failed} fail, ${errors} error)`
        : `${majority}/${samples.length}`,
    duration_ms,
    calls: samples.length,
    ...(usage ? { usage } : {}),
    replies: samples.map((s) => s.sample),
  };
  if (errors) {
    const index = samples.findIndex((s) => s.sample.error !== undefined);
    const which = settings.samples > 1 ? `judge sample ${index + 1} of ${settings.samples}` : 'judge';
    return { error: `${which} (${settings.ref.use}): ${samples[index]!.sample.error}`, record };
  }
  if (passed === failed)
    return {
      error: `judge tie (${settings.ref.use}): ${passed} of ${settings.samples} samples passed and ${failed} failed; no majority, so no verdict — use an odd number of samples`,
      record,
    };
  const verdict = passed > failed;
  const chosen = samples.find((s) => s.sample.passed === verdict)!;
  return { passed: verdict, reason: chosen.sample.reason ?? '', response: chosen.sample.response ?? {}, record };
}

type Resolve = JudgeRequest['resolveAgent'];
const looked = new WeakMap<Resolve, Map<string, Promise<Agent>>>();

/**
 * The judge, looked up once per run (the run's `resolveAgent` is one function): a judge that does
 * not exist is searched for once, not once per case, and every case gets the same error.
 */
function judgeAgent(ref: HelperRef, resolveAgent: Resolve): Promise<Agent> {
  let run = looked.get(resolveAgent);
  if (!run) looked.set(resolveAgent, (run = new Map()));
  let agent = run.get(ref.use);
  if (!agent) run.set(ref.use, (agent = resolveHelper(ref, resolveAgent)));
  return agent;
}

/** What the judge is sent: the payload, after the built-in prompt when the judge is a bare connector. */
export function judgeMessages(request: JudgeSubject & { settings: JudgeSettings }): Message[] {
  const user: Message = { role: 'user', content: judgePayload({ ...request, metadata: request.settings.metadata }) };
  return request.settings.ref.kind === 'connector' ? [{ role: 'system', content: JUDGE_SYSTEM_PROMPT }, user] : [user];
}

interface Answered {
  sample: JudgeSample;
  usage?: TokenUsage;
  model?: string;
}

/** The record of a judge that was never asked: it could not be found. */
function unresolved(request: JudgeRequest, messages: Message[], error: HelperError): JudgeRecord {
  const { settings } = request;
  return {
    use: settings.ref.use,
    temperature: settings.temperature,
    seed: settings.seed,
    prompt_hash: promptHash(messages),
    samples: settings.samples,
    votes: { passed: 0, failed: 0, errors: settings.samples },
    agreement: `no majority (the judge could not be found)`,
    duration_ms: error.duration_ms,
    calls: 0,
    replies: [],
  };
}

async function askOnce(request: JudgeRequest, agent: Agent, messages: Message[], index: number): Promise<Answered> {
  const { settings } = request;
  let reply: HelperReply;
  try {
    reply = await callHelper({
      ref: settings.ref,
      agent,
      messages,
      signal: request.signal,
      timeoutMs: settings.timeoutMs,
      llm: { temperature: settings.temperature, seed: settings.seed + index },
      options: {
        ...(settings.connector ? { connector: settings.connector } : {}),
        metadata: { test_mode: 'validator' },
      },
      chatId: `${request.chatId}-judge-${index + 1}`,
    });
  } catch (error) {
    if (!(error instanceof HelperError)) throw error;
    return { sample: { error: error.message, duration_ms: error.duration_ms } };
  }
  const read = readVerdict(reply.text);
  const cost = { ...(reply.usage ? { usage: reply.usage } : {}), ...(reply.model ? { model: reply.model } : {}) };
  if ('unreadable' in read) return { sample: { error: read.unreadable, duration_ms: reply.duration_ms }, ...cost };
  return {
    sample: {
      passed: read.passed,
      ...(read.reason ? { reason: read.reason } : {}),
      // The parsed reply only when it says more than the verdict and reason (a score, suggestions).
      ...(Object.keys(read.response).some((key) => key !== 'passed' && key !== 'reason')
        ? { response: read.response }
        : {}),
      duration_ms: reply.duration_ms,
    },
    ...cost,
  };
}

function promptHash(messages: Message[]): string {
  return `sha256:${createHash('sha256').update(JSON.stringify(messages)).digest('hex').slice(0, 16)}`;
}

function sumUsage(usages: (TokenUsage | undefined)[]): TokenUsage | undefined {
  const present = usages.filter((u): u is TokenUsage => u !== undefined);
  if (!present.length) return undefined;
  const total: TokenUsage = {};
  for (const usage of present)
    for (const key of ['prompt_tokens', 'completion_tokens', 'total_tokens'] as const)
      if (typeof usage[key] === 'number') total[key] = (total[key] ?? 0) + usage[key];
  return total;
}
