import { styleText } from 'node:util';
import type { PaintFormat as Format } from '@agentest/report';

/** Colour helpers that become identity functions when colour is off (pipes, CI logs, `NO_COLOR`). */
export interface Style {
  readonly enabled: boolean;
  paint(format: Format, text: string): string;
}

/**
 * `styleText` checks the colour support of stdout on its own (but only for single formats); the
 * reporter decides for the stream it actually writes to, so that check is switched off.
 */
export function createStyle(enabled: boolean): Style {
  return {
    enabled,
    paint: (format, text) => (enabled && text ? styleText(format, text, { validateStream: false }) : text),
  };
}

export { colourWanted } from '@agentest/report';
