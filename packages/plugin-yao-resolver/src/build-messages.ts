import type { Message, TestContext } from '@agentest/kernel';
import type { AssistantDefinition } from './assistant-definition.js';
import type { CreateResponse } from './hook-responses.js';
import type { Prompt } from './prompts.js';
import { substitutePrompts } from './variables.js';

export interface PromptChoice {
  /** The assistant's prompts, or the selected preset's; undefined when it has none. */
  prompts?: Prompt[];
  /** The preset actually used, if any. */
  preset?: string;
}

/**
 * Preset selection: the Create hook's `prompt_preset`, else `ctx.metadata.__prompt_preset`. A key
 * that names no preset falls back to the assistant's own prompts.
 */
export function choosePrompts(
  def: AssistantDefinition,
  create: CreateResponse | undefined,
  metadata: Record<string, unknown>,
): PromptChoice {
  const wanted =
    create?.prompt_preset ?? (typeof metadata.__prompt_preset === 'string' ? metadata.__prompt_preset : undefined);
  const preset = wanted ? def.presets.get(wanted) : undefined;
  return preset ? { prompts: preset, preset: wanted } : { prompts: def.prompts };
}

/**
 * Whether global prompts are skipped, highest priority first: the Create hook, the case's
 * `options.disable_global_prompts`, `ctx.metadata.__disable_global_prompts`, package.yao.
 */
export function globalPromptsDisabled(
  def: AssistantDefinition,
  create: CreateResponse | undefined,
  caseOptions: Record<string, unknown>,
  metadata: Record<string, unknown>,
): boolean {
  for (const flag of [
    create?.disable_global_prompts,
    caseOptions.disable_global_prompts,
    metadata.__disable_global_prompts,
  ]) {
    if (typeof flag === 'boolean') return flag;
  }
  return def.disableGlobalPrompts;
}

/**
 * Final messages: [global prompts] + [assistant prompts or preset] + [MCP tool samples, as a system
 * message] + (Create's messages if non-empty, else the input).
 */
export function buildMessages(parts: {
  global?: Prompt[];
  prompts: Prompt[];
  samples?: string;
  conversation: Message[];
  vars: Parameters<typeof substitutePrompts>[1];
}): Message[] {
  const prompts = substitutePrompts([...(parts.global ?? []), ...parts.prompts], parts.vars);
  const samples: Message[] = parts.samples ? [{ role: 'system', content: parts.samples }] : [];
  return [...prompts.map(toMessage), ...samples, ...parts.conversation];
}

/** `$CTX.*` keys, UPPERCASE as Yao's code reads them. */
export function contextVariables(
  def: AssistantDefinition,
  ctx: TestContext,
  create: CreateResponse | undefined,
): Record<string, string> {
  return {
    ASSISTANT_ID: def.id,
    ASSISTANT_NAME: def.name,
    ASSISTANT_DESCRIPTION: def.description,
    ASSISTANT_TYPE: def.type,
    WORKSPACE_ID: '',
    CHAT_ID: ctx.chat_id,
    LOCALE: create?.locale ?? ctx.locale,
    THEME: create?.theme ?? '',
    ROUTE: create?.route ?? '',
    REFERER: ctx.referer,
    CLIENT_TYPE: ctx.client.type,
    USER_ID: ctx.authorized.user_id ?? ctx.user_id,
    TEAM_ID: ctx.authorized.team_id ?? ctx.team_id,
    TENANT_ID: ctx.authorized.tenant_id ?? ctx.team_id,
  };
}

function toMessage(prompt: Prompt): Message {
  return { role: prompt.role, content: prompt.content, ...(prompt.name ? { name: prompt.name } : {}) };
}
