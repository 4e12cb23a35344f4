import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AgentestError } from '@agentest/kernel';
import { didYouMean } from '@agentest/kernel/errors';
import { deriveAgentId, findAppRoot, listAssistants } from '@agentest/plugin-yao-resolver';

/** What marks a Yao application root (`app.json` in older apps). */
const APP_MARKERS = ['app.yao', 'app.json', 'app.jsonc'];
const PACKAGE_FILE = 'package.yao';

/** A Yao app `agentest init` writes a suite for: where the config goes, and the assistant the suite tests. */
export interface YaoTarget {
  /** The folder the config goes into: the app root, or the assistant's own folder when init ran there. */
  root: string;
  /** The assistant's id (`keyword`, `workers.system.keyword`). */
  assistant: string;
  /** The assistant's folder. */
  dir: string;
  /** Every assistant of the app, for the message saying which one was picked. */
  all: string[];
}

/**
 * The Yao app `dir` is, if any: an app root (`app.yao`/`app.json` with assistants under `assistants/`),
 * or an assistant's folder (`package.yao`). In an app root the suite is for `wanted`, else the first
 * assistant in id order.
 */
export async function detectYaoApp(dir: string, wanted?: string): Promise<YaoTarget | undefined> {
  if (existsSync(join(dir, PACKAGE_FILE))) {
    const id = deriveAgentId(dir, findAppRoot(dirname(dir))?.dir);
    if (wanted && wanted !== id)
      throw new AgentestError(
        'FLAG_INVALID',
        `--assistant ${wanted}: ${dir} is the folder of assistant "${id}"; to choose another, run agentest init in the app's root folder (the one holding app.yao)`,
        { where: '--assistant' },
      );
    return { root: dir, assistant: id, dir, all: [id] };
  }
  if (!APP_MARKERS.some((marker) => existsSync(join(dir, marker)))) {
    if (wanted)
      throw new AgentestError(
        'FLAG_INVALID',
        `--assistant ${wanted}: ${dir} is not a Yao app (no app.yao); run agentest init in the app's root folder, or leave out --assistant`,
        { where: '--assistant' },
      );
    return undefined;
  }
  const all = await listAssistants(dir);
  if (!all.length && !wanted) return undefined;
  const assistant = wanted ?? all[0]!;
  if (!all.includes(assistant)) throw unknownAssistant(assistant, all, dir);
  return { root: dir, assistant, dir: join(dir, 'assistants', ...assistant.split('.')), all };
}

function unknownAssistant(id: string, all: readonly string[], root: string): AgentestError {
  const known = all.length ? `; its assistants: ${all.join(', ')}` : `; ${root} has no assistants/*/package.yao yet`;
  return new AgentestError('FLAG_INVALID', `--assistant ${id}: no such assistant${didYouMean(id, all)}${known}`, {
    where: '--assistant',
  });
}
