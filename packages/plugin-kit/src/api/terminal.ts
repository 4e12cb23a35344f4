import { colourWanted } from '@agentest/report';

/**
 * Colour for the agentest-kit terminal format, decided at each call, not at import, by the one
 * colour policy every agentest output follows (`colourWanted` of @agentest/report): only on a
 * TTY, never when NO_COLOR is set, FORCE_COLOR=0 or false off, any other FORCE_COLOR on.
 */
export function useColor(stream: { isTTY?: boolean } = process.stdout): boolean {
  return colourWanted(stream);
}

/** Terminal columns a string takes: CJK and other wide characters take two. */
export { displayWidth } from '@agentest/report';
