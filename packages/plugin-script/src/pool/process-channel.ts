import { MessageChannel } from 'node:worker_threads';
import { errorMessage } from '@agentest/kernel/errors';
import { compileModule } from '../compile/compile.js';
import { sendHttp } from './http-bridge.js';
import type { ChannelAsk, ProcessChannelEnd, ProcessReply } from './protocol.js';
import type { JudgeAnswer, JudgeAsk, ScriptJudge } from '../script-judge.js';
import type { ScriptSnapshot, SnapshotAnswer } from '../script-snapshot.js';
import type { ProcessResolver } from './types.js';

/**
 * Answers a task's `Process(name)` calls, its `http.*` requests, its `t.assert.Agent` judgements and
 * its `t.assert.MatchSnapshot` comparisons on the main thread. The script
 * is blocked while it waits (both are synchronous in Yao), so the answer is posted first and the
 * shared `cell` flipped after: the worker wakes up with the reply already in its port. A script
 * target is compiled here (cached like every module) and handed over as code, so it runs in the
 * caller's own thread.
 */
export function openProcessChannel(
  resolve: ProcessResolver,
  judge?: ScriptJudge,
  snapshot?: ScriptSnapshot,
): ProcessChannelEnd & { close(): void } {
  const { port1, port2 } = new MessageChannel();
  const cell = new Int32Array(new SharedArrayBuffer(4));
  port1.on('message', async (ask: ChannelAsk) => {
    if ('http' in ask) {
      port1.postMessage(await sendHttp(ask.http));
    } else if ('judge' in ask) {
      port1.postMessage(await askJudge(judge, ask.judge));
    } else if ('snapshot' in ask) {
      port1.postMessage(
        snapshot
          ? await snapshot(ask.snapshot)
          : ({
              pass: false,
              error: 't.assert.MatchSnapshot is available in script tests only',
            } satisfies SnapshotAnswer),
      );
    } else {
      const { name } = ask;
      const reply = await answer(resolve, name, ask.stubOnly === true);
      try {
        port1.postMessage(reply);
      } catch (error) {
        port1.postMessage({
          ok: false,
          error: `Process("${name}"): its stub value cannot be sent to the sandbox (${errorMessage(error)})`,
        } satisfies ProcessReply);
      }
    }
    Atomics.store(cell, 0, 1);
    Atomics.notify(cell, 0);
  });
  return { port: port2, cell, close: () => port1.close() };
}

/** A judge that throws (a bug, not a verdict) answers as an error, so the script is never left waiting. */
async function askJudge(judge: ScriptJudge | undefined, ask: JudgeAsk): Promise<JudgeAnswer> {
  if (!judge) return { pass: false, error: 't.assert.Agent is available in script tests only' };
  try {
    return await judge(ask);
  } catch (error) {
    return { pass: false, error: `t.assert.Agent: ${errorMessage(error)}` };
  }
}

async function answer(resolve: ProcessResolver, name: string, stubOnly: boolean): Promise<ProcessReply> {
  try {
    let target: Awaited<ReturnType<ProcessResolver>>;
    try {
      target = await resolve(name);
    } catch (error) {
      // Such names (`ctx.agent.Call`) resolve only to stubs; anything else means nobody stubbed it.
      if (stubOnly) return { ok: false, error: errorMessage(error), unstubbed: true };
      throw error;
    }
    if ('value' in target) return { ok: true, target: { kind: 'value', value: target.value } };
    const module = await compileModule(target.file);
    return {
      ok: true,
      target: {
        kind: 'script',
        key: module.key,
        code: module.code,
        filename: module.filename,
        fn: target.fn,
        file: target.file,
      },
    };
  } catch (error) {
    const message = errorMessage(error);
    return { ok: false, error: message.startsWith(`Process("${name}")`) ? message : `Process("${name}"): ${message}` };
  }
}
