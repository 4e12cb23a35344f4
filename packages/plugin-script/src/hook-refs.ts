import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { AgentestError, type Agent, type Suite } from '@agentest/kernel';
import { findUp } from './resolve/app-root.js';

/**
 * Where hook refs are resolved, as Yao does: the `src/` of the assistant that runs the cases (`-n`,
 * or the one found from the suite), so a suite kept outside its assistant's folder still finds them.
 * An agent that is no Yao assistant (echo, a config agent) falls back to the package.yao above the suite.
 */
export class AssistantDirs {
  private last?: { agent: Agent | undefined; dir: string };

  constructor(
    private readonly suite: Suite,
    private readonly fixed?: string,
  ) {}

  for(agent: Agent | undefined, ref: string): string {
    if (this.fixed) return resolve(this.fixed);
    if (this.last && this.last.agent === agent) return this.last.dir;
    const own = agent?.path && existsSync(join(agent.path, 'package.yao')) ? resolve(agent.path) : undefined;
    const dir = own ?? findAssistantDir(this.suite, agent, ref);
    this.last = { agent, dir };
    return dir;
  }
}

/** `env_test.Before` → `<assistant>/src/env_test.ts`, function `Before`. */
export function resolveHookRef(ref: string, assistantDir: string): { file: string; fn: string } {
  const parts = ref.split('.');
  const fn = parts.pop()!;
  const src = join(assistantDir, 'src');
  let module = parts.join('/').replace(/^src\//, '');
  if (!module) {
    const first = existsSync(src)
      ? readdirSync(src)
          .filter((name) => /_test\.[jt]s$/.test(name))
          .sort()[0]
      : undefined;
    if (!first)
      throw new AgentestError('CONFIG_INVALID', `hook ${ref}: no *_test.ts file in ${src} to take ${fn} from`, {
        where: ref,
      });
    module = first.replace(/\.[jt]s$/, '');
  }
  if (!module.endsWith('_test')) module += '_test';
  const tried = ['.ts', '.js'].map((ext) => join(src, module + ext));
  const file = tried.find((path) => existsSync(path));
  if (!file)
    throw new AgentestError('CONFIG_INVALID', `hook ${ref}: file not found (tried: ${tried.join(', ')})`, {
      where: ref,
    });
  return { file, fn };
}

/**
 * Fails early when a ref's file is missing or never mentions the function's name. The word test is
 * deliberately loose (any declaration style passes); the call itself still reports a missing export.
 */
export function checkHookRef(ref: string, assistantDir: string, blame: string): void {
  const { file, fn } = resolveHookRef(ref, assistantDir);
  if (!new RegExp(`\\b${fn.replace(/[^\w$]/g, '')}\\b`).test(readFileSync(file, 'utf8')))
    throw missingFunction(blame, ref, file, fn);
}

/** `hooks.after: env_test.Afterr: assistants/hooks/src/env_test.ts:Afterr does not exist`. */
export function missingFunction(blame: string, ref: string, file: string, fn: string): AgentestError {
  const shown = relative(process.cwd(), file);
  const where = `${shown.startsWith('..') ? file : shown}:${fn}`;
  return new AgentestError(
    'CONFIG_INVALID',
    `${blame}: ${ref}: ${where} does not exist; define ${fn} in that file or correct the hook name`,
    { where: blame },
  );
}

function findAssistantDir(suite: Suite, agent: Agent | undefined, ref: string): string {
  const from = suite.agentHint?.path;
  const dir = from
    ? findUp(existsSync(from) && !from.endsWith('.jsonl') ? from : dirname(from), ['package.yao'])
    : undefined;
  if (dir) return dir;
  const ran = agent ? `the agent "${agent.id}" is not a Yao assistant` : 'no agent was resolved';
  throw new AgentestError(
    'CONFIG_INVALID',
    `hook ${ref}: cannot tell which assistant's src/ holds it: ${ran}, and no package.yao is above ${from ?? 'the suite input'}; pass -n <assistant-id>`,
    { where: ref },
  );
}
