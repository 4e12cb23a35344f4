import type { Prompt } from './prompts.js';

/**
 * Request-time substitution in prompts: `$SYS.*` (clock), `$ENV.*` (empty when unset) and `$CTX.*`
 * (UPPERCASE keys; empty when unknown), with Yao's patterns. An unknown `$SYS.X` is left as written.
 */
export function substitute(
  text: string,
  vars: { env: NodeJS.ProcessEnv; ctx: Record<string, string>; now?: Date },
): string {
  const sys = systemVariables(vars.now ?? new Date());
  return text
    .replace(/\$SYS\.([A-Z_]+)/g, (all, name: string) => sys[name] ?? all)
    .replace(/\$ENV\.([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => vars.env[name] ?? '')
    .replace(/\$CTX\.([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => vars.ctx[name] ?? '');
}

export function substitutePrompts(prompts: readonly Prompt[], vars: Parameters<typeof substitute>[1]): Prompt[] {
  return prompts.map((p) => ({ ...p, content: substitute(p.content, vars) }));
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Local time, formatted as Go's layouts print it; UNIX is the real epoch seconds. */
export function systemVariables(now: Date): Record<string, string> {
  const pad = (n: number) => String(n).padStart(2, '0');
  const date = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  const time = `${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
  return {
    TIME: time,
    DATE: date,
    DATETIME: `${date} ${time}`,
    TIMEZONE: Intl.DateTimeFormat().resolvedOptions().timeZone,
    WEEKDAY: WEEKDAYS[now.getDay()]!,
    YEAR: String(now.getFullYear()),
    MONTH: pad(now.getMonth() + 1),
    DAY: pad(now.getDate()),
    HOUR: pad(now.getHours()),
    MINUTE: pad(now.getMinutes()),
    SECOND: pad(now.getSeconds()),
    UNIX: String(Math.floor(now.getTime() / 1000)),
  };
}
