import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import * as z from 'zod';
import { AgentestError, type ContextFile } from '@agentest/kernel';
import { didYouMean } from '@agentest/kernel/errors';

const optionalString = z.string().optional();

/** Every field of the seed's "Context JSON Format"; unknown keys are refused so typos do not pass silently. */
const contextShape = z.strictObject({
  chat_id: optionalString,
  authorized: z
    .strictObject({
      sub: optionalString,
      client_id: optionalString,
      scope: optionalString,
      session_id: optionalString,
      user_id: optionalString,
      team_id: optionalString,
      tenant_id: optionalString,
      remember_me: z.boolean().optional(),
      constraints: z
        .strictObject({
          owner_only: z.boolean().optional(),
          creator_only: z.boolean().optional(),
          editor_only: z.boolean().optional(),
          team_only: z.boolean().optional(),
          extra: z.record(z.string(), z.unknown()).optional(),
        })
        .optional(),
    })
    .optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  client: z.strictObject({ type: optionalString, user_agent: optionalString, ip: optionalString }).optional(),
  locale: optionalString,
  referer: optionalString,
});

const KNOWN: Record<string, string[]> = {
  '': ['chat_id', 'authorized', 'metadata', 'client', 'locale', 'referer'],
  authorized: [
    'sub',
    'client_id',
    'scope',
    'session_id',
    'user_id',
    'team_id',
    'tenant_id',
    'remember_me',
    'constraints',
  ],
  'authorized.constraints': ['owner_only', 'creator_only', 'editor_only', 'team_only', 'extra'],
  client: ['type', 'user_agent', 'ip'],
};

/** Reads and checks a `--ctx` file; any fault names the file and the field. */
export async function readContextFile(path: string, cwd: string): Promise<{ file: string; ctx: ContextFile }> {
  const file = resolve(cwd, path);
  const fail = (problem: string) => new AgentestError('CONTEXT_FILE_INVALID', `${file}: ${problem}`, { where: file });
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw fail(
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? 'file not found (--ctx)'
        : `cannot read the file: ${(error as Error).message}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw fail(`not valid JSON: ${(error as Error).message}`);
  }
  const parsed = contextShape.safeParse(json);
  if (parsed.success) return { file, ctx: parsed.data as ContextFile };
  const issue = parsed.error.issues[0]!;
  const at = issue.path.join('.');
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0]!;
    const field = at ? `${at}.${key}` : key;
    throw fail(`unknown field "${field}"${didYouMean(key, KNOWN[at] ?? [])}`);
  }
  throw fail(`field "${at || '(root)'}": ${issue.message}`);
}
