import type { IncomingMessage, ServerResponse } from 'node:http';
import { describeFault, retryAfterHeader } from './faults.js';
import { openaiError } from './openai-format.js';
import { authorized, chatApi, isModelList, readBody, recordRequest } from './request.js';
import { respond, sendError, sendJson } from './respond.js';
import { Planner } from './script.js';
import type { FakeApi, FakeLlmOptions, Fault, RecordedRequest } from './types.js';

const MODEL_LIST = {
  object: 'list',
  data: [{ id: 'fake-model', object: 'model', created: 0, owned_by: 'fake-llm' }],
};

/**
 * Answers one HTTP request at a time: records a chat request, asks the planner for its reply, fault and
 * latency, and sends them. `stop()` cancels pending latencies so that closing the server never waits on them.
 */
export class FakeLlmHandler {
  readonly planner: Planner;
  readonly requests: RecordedRequest[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private chatCount = 0;
  private stopped = false;

  constructor(private readonly options: FakeLlmOptions) {
    this.planner = new Planner(options);
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    const raw = await readBody(req);
    const api = chatApi(req.method, path);
    if (!api) {
      if (isModelList(req.method, path)) return sendJson(res, 200, MODEL_LIST);
      return sendJson(res, 404, openaiError(404, 'not_found', `fake-llm: no route for ${req.method} ${path}`));
    }
    const { record, parsed } = recordRequest(req, path, api, raw, ++this.chatCount);
    if (this.options.record !== false) this.requests.push(record);
    if (!parsed) return sendError(res, api, 400, 'fake-llm: the request body is not valid JSON');
    if (this.options.apiKey && !authorized(req, this.options.apiKey))
      return sendError(res, api, 401, 'fake-llm: missing or wrong API key');

    const plan = this.planner.plan(record);
    if (plan.fault) record.fault = describeFault(plan.fault);
    if (plan.fault && answeredByFault(req, res, api, plan.fault)) return;
    if (plan.latencyMs > 0) await this.sleep(plan.latencyMs);
    if (this.stopped || res.destroyed) return;
    respond(res, api, record, plan);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
    });
  }
}

/** Faults that replace the reply altogether: a dropped connection, no answer at all, or an error status. */
function answeredByFault(req: IncomingMessage, res: ServerResponse, api: FakeApi, fault: Fault): boolean {
  if (fault.type === 'reset') req.socket.destroy();
  else if (fault.type === 'status') {
    const retryAfter = retryAfterHeader(fault.retryAfter);
    const message = fault.message ?? `fake-llm: injected ${fault.status}`;
    sendError(res, api, fault.status, message, retryAfter ? { 'retry-after': retryAfter } : {});
  }
  // A hang is never answered; closing the server ends the connection.
  return fault.type === 'reset' || fault.type === 'status' || fault.type === 'hang';
}
