import { parse } from 'lossless-json';

/**
 * `JSON.parse` reads an integer beyond 2^53 as the nearest double, so `12345678901234567890` and
 * `12345678901234567891` become the same number and would compare equal. Values stay plain numbers
 * everywhere (reports, scripts and hooks see what `JSON.parse` gives); `parseJson` also keeps the
 * source text of each such integer, by the object or array that holds it and its key, and
 * comparisons ask `exactText` for it. A value that reached agentest already parsed (an object reply
 * from a connector or a script) has no source text and compares as a double.
 */
const exactTexts = new WeakMap<object, Map<string, string>>();

/** Only text with a run of this many digits can hold an integer beyond 2^53 (9007199254740992). */
const LONG_RUN = 16;
const INTEGER = /^-?\d+$/;

/** An integer literal beyond 2^53, between the parser and the reviver that records its text. */
class ExactInteger {
  constructor(readonly text: string) {}
}

/**
 * `JSON.parse`, and the source text of integers beyond 2^53 kept for comparisons. Text without a
 * long run of digits (nearly all) goes straight to `JSON.parse`; text that is not JSON throws
 * `JSON.parse`'s own error.
 */
export function parseJson(text: string): unknown {
  if (!hasLongDigitRun(text)) return JSON.parse(text);
  try {
    // A repeated key keeps its last value, as `JSON.parse` does.
    return parse(text, keepText, { parseNumber, onDuplicateKey: ({ newValue }) => newValue });
  } catch {
    return JSON.parse(text);
  }
}

/**
 * Whether the text holds `LONG_RUN` digits in a row (as `/\d{16}/` would say, four times faster: this
 * runs on every case line). Such a run covers one of any `LONG_RUN` consecutive positions, so only
 * every `LONG_RUN`th character is looked at, and the run around a digit found there is measured.
 */
export function hasLongDigitRun(text: string): boolean {
  for (let i = LONG_RUN - 1; i < text.length; i += LONG_RUN) {
    if (!isDigit(text.charCodeAt(i))) continue;
    let start = i;
    while (start > 0 && isDigit(text.charCodeAt(start - 1))) start--;
    let end = i + 1;
    while (end < text.length && isDigit(text.charCodeAt(end))) end++;
    if (end - start >= LONG_RUN) return true;
    // A later run starts past `end`, so it covers the position `LONG_RUN - 1` after it.
    i = end - 1;
  }
  return false;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function parseNumber(text: string): unknown {
  const value = Number(text);
  return INTEGER.test(text) && !Number.isSafeInteger(value) ? new ExactInteger(text) : value;
}

function keepText(this: object, key: string, value: unknown): unknown {
  if (!(value instanceof ExactInteger)) return value;
  let texts = exactTexts.get(this);
  if (!texts) exactTexts.set(this, (texts = new Map()));
  texts.set(key, value.text);
  return Number(value.text);
}

/** The source text of the integer at `holder[key]`, when it was parsed by `parseJson` and is beyond 2^53. */
export function exactText(holder: unknown, key: string | number): string | undefined {
  return holder !== null && typeof holder === 'object' ? exactTexts.get(holder)?.get(String(key)) : undefined;
}

/** Records that `to[toKey]` holds the same integer as `from[fromKey]` (for copies of parsed values). */
export function carryExactText(from: unknown, fromKey: string | number, to: object, toKey: string | number): void {
  const text = exactText(from, fromKey);
  if (text === undefined) return;
  let texts = exactTexts.get(to);
  if (!texts) exactTexts.set(to, (texts = new Map()));
  texts.set(String(toKey), text);
}

/**
 * Whether two numbers that are equal as doubles are the same number: when both came with source
 * text, the texts decide; otherwise the doubles do. Only integers beyond 2^53 can differ here.
 */
export function sameExactNumber(a: number, aText: string | undefined, bText: string | undefined): boolean {
  return aText === undefined || bText === undefined || Number.isSafeInteger(a) || aText === bText;
}
