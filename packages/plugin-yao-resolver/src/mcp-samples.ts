import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One line of a tool's `.jsonl` samples: an example call for the model. */
export interface ToolSample {
  name?: string;
  input?: unknown;
  output?: unknown;
  metadata?: Record<string, unknown>;
}

/** Yao shows the model at most this many examples per tool. */
const SAMPLES_PER_TOOL = 3;

/**
 * A process tool's examples, from `<root>/mcps/mapping/<server id as a path>/schemes/<tool>.jsonl`
 * (the app's mapping folder even for an assistant's own server, as Yao looks them up). Lines that
 * are not JSON objects are skipped, as Yao skips them.
 */
export async function loadToolSamples(root: string | undefined, serverId: string, tool: string): Promise<ToolSample[]> {
  if (!root) return [];
  const file = join(root, 'mcps', 'mapping', ...serverId.split('.'), 'schemes', `${tool}.jsonl`);
  if (!existsSync(file)) return [];
  const samples: ToolSample[] = [];
  for (const line of (await readFile(file, 'utf8')).split('\n')) {
    if (!line.trim()) continue;
    try {
      const value = JSON.parse(line) as unknown;
      if (value && typeof value === 'object' && !Array.isArray(value)) samples.push(value as ToolSample);
    } catch {
      // Yao logs nothing for a bad line and goes on.
    }
  }
  return samples;
}

/**
 * The system message Yao puts between the prompts and the conversation when offered tools have
 * samples: a heading, then per tool its name, description and up to three examples.
 */
export function samplesPrompt(
  tools: Array<{ name: string; description: string; samples: ToolSample[] }>,
): string | undefined {
  const withSamples = tools.filter((t) => t.samples.length);
  if (!withSamples.length) return undefined;
  let text = '\n\n## MCP Tool Usage Examples\n\nThe following examples demonstrate how to use MCP tools correctly:\n\n';
  for (const tool of withSamples) {
    text += `### ${tool.name}\n\n`;
    if (tool.description) text += `**Description**: ${tool.description}\n\n`;
    tool.samples.slice(0, SAMPLES_PER_TOOL).forEach((sample, i) => {
      text += `**Example ${i + 1}${sample.name ? ` - ${sample.name}` : ''}**:\n`;
      const description = sample.metadata?.description;
      if (typeof description === 'string' && description) text += `- Description: ${description}\n`;
      if (sample.input !== undefined && sample.input !== null) text += `- Input: \`${goValue(sample.input)}\`\n`;
      if (sample.output !== undefined && sample.output !== null) text += `- Output: \`${goValue(sample.output)}\`\n`;
      text += '\n';
    });
  }
  return text;
}

/** Go's `%v` for decoded JSON, which Yao uses to print sample values: `map[a:1 b:[x y]]`. */
function goValue(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return `[${value.map(goValue).join(' ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `map[${entries.map(([k, v]) => `${k}:${goValue(v)}`).join(' ')}]`;
  }
  return String(value);
}
