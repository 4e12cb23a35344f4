import type { Command } from 'commander';

/**
 * Go's flag package reads `-run` and `--run` alike, and Yao's own docs write `-run TestSystemReady`.
 * A POSIX parser reads `-run X` as `-r un` followed by a stray `X`, and `-timeout 30s` as `-t imeout`
 * (the team!), silently. This rewrites a single-dash word that names one of the command's long
 * options (`-run`, `-runs`, `-timeout`, `-parallel`, `-ctx`, `-fail-fast`, `-run=X`, …) to its
 * double-dash form, leaving values alone: the argument after an option that takes a value, and
 * everything after `--`.
 */
export function acceptGoFlags(argv: readonly string[], command: Command): string[] {
  const options = command.options;
  const longs = new Set(options.map((o) => o.long).filter((l): l is string => Boolean(l)));
  const takesValue = new Set(
    options
      .filter((o) => o.required || o.optional)
      .flatMap((o) => [o.long, o.short])
      .filter((f): f is string => Boolean(f)),
  );
  const out: string[] = [];
  let valueNext = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return [...out, ...argv.slice(i)];
    if (valueNext) {
      valueNext = false;
      out.push(arg);
      continue;
    }
    const [flag, value] = splitValue(arg);
    const goStyle = /^-[a-z][a-z-]+$/.test(flag) && longs.has(`-${flag}`);
    out.push(goStyle ? `-${flag}${value === undefined ? '' : `=${value}`}` : arg);
    valueNext = value === undefined && takesValue.has(goStyle ? `-${flag}` : arg);
  }
  return out;
}

/** `-run=X` → [`-run`, `X`]; anything else is a flag (or a plain argument) without an attached value. */
function splitValue(arg: string): [string, string | undefined] {
  const eq = arg.indexOf('=');
  return arg.startsWith('-') && eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
}
