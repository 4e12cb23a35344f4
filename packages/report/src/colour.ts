import type { EnvironmentVariables } from '@agentest/kernel';
/**
 * The colour policy of everything agentest prints (the console reporter, the kit's print API, the
 * `compare` table): `NO_COLOR` with any non-empty value turns colour off; otherwise `FORCE_COLOR`
 * turns it off when `0` or `false` and on for any other value (`''`, `1`, `true`, `3`), as Node and
 * supports-color read it; otherwise colour follows whether the stream is a terminal. Decided at
 * each call, never once at import, so a test or an embedding program can change the environment.
 */
export function colourWanted(
  stream: { isTTY?: boolean } = process.stdout,
  env: EnvironmentVariables = process.env,
): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return stream.isTTY === true;
}
