import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { parse, YAMLParseError } from 'yaml';
import { AgentestError } from '@agentest/kernel';

/** One entry of `prompts.yml`: Yao's `{role, content, name?}`. */
export interface Prompt {
  role: string;
  content: string;
  name?: string;
}

const ASSET_REF = /@assets\/(\S+\.(?:md|yml|yaml|json|txt))/g;

/**
 * Loads a prompt list. `@assets/<file>` is replaced by `<assetsRoot>/assets/<file>` as a YAML block
 * scalar before parsing, as Yao does; a missing asset is an error here (Yao silently inserts nothing).
 */
export async function loadPromptFile(file: string, assetsRoot: string): Promise<Prompt[]> {
  const raw = await readFile(file, 'utf8');
  const text = await inlineAssets(raw, assetsRoot, file);
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    const where =
      error instanceof YAMLParseError && error.linePos
        ? `${file}:${error.linePos[0].line}:${error.linePos[0].col}`
        : file;
    throw new AgentestError('CONFIG_INVALID', `${where}: invalid YAML (${firstLine((error as Error).message)})`, {
      where,
    });
  }
  return toPrompts(value ?? [], file);
}

/** Validates a prompt list, whether from prompts.yml or package.yao's `prompts` key. */
export function toPrompts(value: unknown, where: string): Prompt[] {
  if (!Array.isArray(value))
    throw new AgentestError(
      'CONFIG_INVALID',
      `${where}: prompts must be a list of {role, content}, got ${typeof value}`,
      { where },
    );
  return value.map((item, i) => {
    const entry = item as Partial<Prompt> | null;
    if (!entry || typeof entry !== 'object' || typeof entry.role !== 'string') {
      throw new AgentestError(
        'CONFIG_INVALID',
        `${where}: prompt #${i + 1} needs a "role" (system, user or assistant)`,
        { where },
      );
    }
    const content =
      entry.content == null ? '' : typeof entry.content === 'string' ? entry.content : JSON.stringify(entry.content);
    return { role: entry.role, content, ...(typeof entry.name === 'string' && entry.name ? { name: entry.name } : {}) };
  });
}

/** `prompts/chat/friendly.yml` → `chat.friendly`; any depth, `.yml` or `.yaml`. */
export async function loadPresets(dir: string, assetsRoot: string): Promise<Map<string, Prompt[]>> {
  const presets = new Map<string, Prompt[]>();
  if (!existsSync(dir)) return presets;
  const files = (await readdir(dir, { recursive: true })).filter((f) => /\.ya?ml$/.test(f)).sort();
  for (const file of files) {
    const key = relative(dir, join(dir, file))
      .replace(/\.ya?ml$/, '')
      .split(sep)
      .join('.');
    presets.set(key, await loadPromptFile(join(dir, file), assetsRoot));
  }
  return presets;
}

async function inlineAssets(text: string, assetsRoot: string, file: string): Promise<string> {
  const refs = [...new Set([...text.matchAll(ASSET_REF)].map((m) => m[1]!))];
  const contents = new Map<string, string>();
  for (const ref of refs) {
    const path = join(assetsRoot, 'assets', ref);
    try {
      contents.set(ref, await readFile(path, 'utf8'));
    } catch {
      throw new AgentestError('CONFIG_INVALID', `${file}: @assets/${ref} not found (looked for ${path})`, {
        where: file,
      });
    }
  }
  return text.replace(
    ASSET_REF,
    (_, ref: string) =>
      `|\n${contents
        .get(ref)!
        .split('\n')
        .map((line) => `    ${line}`)
        .join('\n')}\n`,
  );
}

function firstLine(message: string): string {
  return message.split('\n')[0]!;
}
