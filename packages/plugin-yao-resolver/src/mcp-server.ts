import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AgentestError } from '@agentest/kernel';
import { readJsonc } from './jsonc.js';
import { loadToolSamples, type ToolSample } from './mcp-samples.js';

/** One tool of a server: its name, what the model is told about it, and (process transport) what it runs. */
export interface McpTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments, sent to the model as the function's `parameters`. */
  inputSchema: Record<string, unknown>;
  /** Process transport: the Yao process the tool runs (`scripts.tools.Search`, `agents.bot.store.Find`). */
  process?: string;
  /** Process transport: `x-process-args` of the input schema; absent = the whole arguments object. */
  processArgs?: string[];
  /** Process transport: example calls shown to the model (`schemes/<tool>.jsonl`). */
  samples?: ToolSample[];
}

/** A `*.mcp.yao` file, read as Yao's MCP loader reads it. */
export interface McpServer {
  /** `tools` for `mcps/tools.mcp.yao`; `agents.<assistant>.tools` for an assistant's `mcps/tools.mcp.yao`. */
  id: string;
  file: string;
  label: string;
  description: string;
  transport: 'process' | 'stdio' | 'sse' | 'http';
  /** Declared tools; for external transports they are listed by the server itself, so this is empty. */
  tools: McpTool[];
  /** The DSL as written, for the external transports (`command`, `args`, `env`, `url`, `headers`, …). */
  dsl: Record<string, unknown>;
}

const TRANSPORTS = new Set(['process', 'stdio', 'sse', 'http']);

/**
 * Reads one server definition. Process-transport tools map names to Yao processes; each needs an
 * input schema at `<mappingDir>/schemes/<tool>.in.yao` (Yao refuses to load the server without it).
 * The schema's `description` is the tool's; `x-process-args` maps arguments to process parameters.
 * `mappingDir` is `mcps/mapping/<server path>` next to the file, the server path being the file's
 * path under `mcps/` with its extension removed.
 */
export async function loadMcpServer(file: string, id: string, mappingDir: string, root?: string): Promise<McpServer> {
  const value = await readJsonc(file);
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw invalid(file, 'expected a JSON object {transport, tools, …}');
  const dsl = value as Record<string, unknown>;
  const transport = dsl.transport;
  if (typeof transport !== 'string' || !TRANSPORTS.has(transport)) {
    throw invalid(
      file,
      `"transport" must be one of process, stdio, sse, http (got ${JSON.stringify(transport ?? null)})`,
    );
  }
  const tools = transport === 'process' ? await processTools(dsl.tools, file, mappingDir, id, root) : [];
  return {
    id,
    file,
    label: typeof dsl.label === 'string' ? dsl.label : id,
    description: typeof dsl.description === 'string' ? dsl.description : '',
    transport: transport as McpServer['transport'],
    tools,
    dsl,
  };
}

async function processTools(
  tools: unknown,
  file: string,
  mappingDir: string,
  id: string,
  root: string | undefined,
): Promise<McpTool[]> {
  if (tools === undefined || tools === null) return [];
  if (typeof tools !== 'object' || Array.isArray(tools))
    throw invalid(file, '"tools" must map tool names to Yao processes, e.g. { "search": "scripts.tools.Search" }');
  const out: McpTool[] = [];
  for (const [name, process] of Object.entries(tools)) {
    if (typeof process !== 'string' || !process)
      throw invalid(file, `tool "${name}" must name a Yao process, e.g. "scripts.tools.Search"`);
    out.push({
      name,
      process,
      ...(await inputSchema(name, file, mappingDir)),
      samples: await loadToolSamples(root, id, name),
    });
  }
  return out;
}

/** `schemes/<tool>.in.yao`: a JSON Schema, or `{description, inputSchema}` as some apps write it. */
async function inputSchema(
  tool: string,
  file: string,
  mappingDir: string,
): Promise<Pick<McpTool, 'description' | 'inputSchema' | 'processArgs'>> {
  const schemaFile = join(mappingDir, 'schemes', `${tool}.in.yao`);
  if (!existsSync(schemaFile)) {
    throw invalid(
      file,
      `tool "${tool}" has no input schema; Yao needs ${schemaFile} (a JSON Schema with a "description")`,
      schemaFile,
    );
  }
  const value = await readJsonc(schemaFile);
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw invalid(schemaFile, 'expected a JSON Schema object', schemaFile);
  const raw = value as Record<string, unknown>;
  const wrapped = raw.inputSchema && typeof raw.inputSchema === 'object' && !Array.isArray(raw.inputSchema);
  const schema = (wrapped ? raw.inputSchema : raw) as Record<string, unknown>;
  const args = raw['x-process-args'] ?? schema['x-process-args'];
  if (args !== undefined && (!Array.isArray(args) || args.some((a) => typeof a !== 'string'))) {
    throw invalid(
      schemaFile,
      '"x-process-args" must be a list of strings such as ":arguments" or "$args.keyword"',
      schemaFile,
    );
  }
  return {
    description:
      typeof raw.description === 'string'
        ? raw.description
        : typeof schema.description === 'string'
          ? schema.description
          : '',
    inputSchema: schema,
    ...(args ? { processArgs: args as string[] } : {}),
  };
}

function invalid(file: string, problem: string, where = file): AgentestError {
  return new AgentestError('CONFIG_INVALID', `${file}: ${problem}`, { where });
}
