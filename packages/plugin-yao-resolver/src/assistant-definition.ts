import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AgentestError } from '@agentest/kernel';
import { readJsonc } from './jsonc.js';
import { PACKAGE_FILE } from './locate.js';
import { readMcpConfig, type McpConfig } from './mcp-config.js';
import { loadPresets, loadPromptFile, toPrompts, type Prompt } from './prompts.js';

/** Everything read from one assistant directory, once. Request-time work happens in the agent. */
export interface AssistantDefinition {
  id: string;
  dir: string;
  name: string;
  description: string;
  type: string;
  /** package.yao `connector`, `$ENV.` already expanded (left as written when the variable is unset). */
  connector?: string;
  /** LLM parameters from package.yao `options` (temperature, max_tokens, …). */
  options: Record<string, unknown>;
  /** undefined when the assistant has no prompts at all: then the LLM is skipped. */
  prompts?: Prompt[];
  /** `prompts/chat/friendly.yml` → `chat.friendly`, chosen per request. */
  presets: Map<string, Prompt[]>;
  disableGlobalPrompts: boolean;
  /**
   * package.yao `mcp`: the MCP servers whose tools the model gets. Its presence alone makes the assistant call the LLM.
   */
  mcp?: McpConfig;
  /** `src/index.ts` or `src/index.js`, when present. */
  hookFile?: string;
}

const HOOK_FILES = ['src/index.ts', 'src/index.js'];

export async function loadAssistant(dir: string, id: string, env: NodeJS.ProcessEnv): Promise<AssistantDefinition> {
  const file = join(dir, PACKAGE_FILE);
  const pkg = await readJsonc(file);
  if (!pkg || typeof pkg !== 'object' || Array.isArray(pkg)) {
    throw new AgentestError('CONFIG_INVALID', `${file}: expected a JSON object`, { where: file });
  }
  const p = pkg as Record<string, unknown>;
  const str = (key: string) => {
    const v = p[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string')
      throw new AgentestError('CONFIG_INVALID', `${file}: "${key}" must be a string, got ${typeof v}`, { where: file });
    return v;
  };
  const options = p.options ?? {};
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new AgentestError(
      'CONFIG_INVALID',
      `${file}: "options" must be an object of LLM parameters (temperature, max_tokens, …)`,
      { where: file },
    );
  }
  const connector = str('connector');
  return {
    id,
    dir,
    name: str('name') || id,
    description: str('description') ?? '',
    type: str('type') || 'assistant',
    ...(connector ? { connector: expandEnv(connector, env) } : {}),
    options: options as Record<string, unknown>,
    prompts: await readPrompts(dir, p.prompts, file),
    presets: await readPresets(dir, p.prompt_presets, file),
    disableGlobalPrompts: p.disable_global_prompts === true,
    ...optional('mcp', readMcpConfig(p.mcp, file)),
    hookFile: HOOK_FILES.map((f) => join(dir, f)).find((f) => existsSync(f)),
  };
}

/** `prompts.yml` wins; package.yao's inline `prompts` is the fallback (Yao's store does the same). */
async function readPrompts(dir: string, inline: unknown, file: string): Promise<Prompt[] | undefined> {
  const yml = join(dir, 'prompts.yml');
  if (existsSync(yml)) return loadPromptFile(yml, dir);
  if (inline === undefined || inline === null) return undefined;
  return toPrompts(inline, `${file} "prompts"`);
}

/** Presets come from `prompts/**\/*.yml`; package.yao may add inline ones under `prompt_presets`. */
async function readPresets(dir: string, inline: unknown, file: string): Promise<Map<string, Prompt[]>> {
  const presets = await loadPresets(join(dir, 'prompts'), dir);
  if (inline && typeof inline === 'object' && !Array.isArray(inline)) {
    for (const [key, value] of Object.entries(inline)) {
      if (!presets.has(key)) presets.set(key, toPrompts(value, `${file} "prompt_presets.${key}"`));
    }
  }
  return presets;
}

/** Yao's rule for package.yao `connector`: a value starting with `$ENV.` is replaced when the variable is set. */
export function expandEnv(value: string, env: NodeJS.ProcessEnv): string {
  if (!value.startsWith('$ENV.')) return value;
  const name = value.slice('$ENV.'.length);
  return env[name] || value;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
