import { defineReporter, type AgentestPlugin, type DeepReadonly, type ToolCall } from '@agentest/kernel';
import { terminalSafe, type TextStream } from '@agentest/report';

/** The reporter's name, in messages too. */
export const PLUGIN_NAME = 'agentest:message';

/**
 * Direct message mode without `-o`: the reply goes to stdout as Yao prints it (a string raw, anything
 * else as indented JSON, then `--- Tool Calls ---`), so it can be piped; a failed call goes to stderr.
 */
export function messageOutput(streams: { stdout: TextStream; stderr: TextStream }): AgentestPlugin {
  return defineReporter({
    name: PLUGIN_NAME,
    onResult(result) {
      const run = result.runs[0];
      if (result.status === 'error' || result.status === 'timeout') {
        streams.stderr.write(`${result.status}: ${terminalSafe(result.error ?? 'the agent call failed')}\n`);
        return;
      }
      const output = result.output;
      streams.stdout.write(`${typeof output === 'string' ? output : JSON.stringify(output ?? null, null, 2)}\n`);
      if (run?.tool_calls?.length) streams.stdout.write(toolCallSummary(run.tool_calls));
      if (result.status === 'failed' && result.error) streams.stderr.write(`failed: ${terminalSafe(result.error)}\n`);
    },
  });
}

/** `--- Tool Calls ---` then one line per call: `server/tool → OK|ERR: … (args: …)`. */
export function toolCallSummary(calls: readonly DeepReadonly<ToolCall>[]): string {
  const lines = calls.map((call) => {
    const name = call.server ? `${call.server}/${call.name}` : call.name;
    const status = call.error ? `ERR: ${call.error}` : 'OK';
    const args =
      call.arguments === undefined
        ? ''
        : ` (args: ${cut(typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments), 80)})`;
    return `${name} → ${status}${args}`;
  });
  return `\n--- Tool Calls ---\n${lines.join('\n')}\n`;
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
