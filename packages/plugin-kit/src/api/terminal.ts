/**
 * Colour for the agentest-kit terminal format, decided at each call, not at import: only on a TTY,
 * never when NO_COLOR is set, always when FORCE_COLOR asks for it.
 */
export function useColor(stream: { isTTY?: boolean } = process.stdout): boolean {
  const env = process.env;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false') return true;
  return stream.isTTY === true;
}

/** Terminal columns a string takes: CJK and other wide characters take two. */
export { displayWidth } from '@agentest/reporter-console';
