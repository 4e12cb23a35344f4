/** Just enough XML writing for JUnit: escaping, and dropping what XML 1.0 cannot carry. */

// Anything outside XML 1.0's Char production: C0 controls other than tab/LF/CR, U+FFFE/U+FFFF, lone surrogates.
const ILLEGAL = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function stripIllegal(text: string): string {
  return text.replace(ILLEGAL, '');
}

export function escapeText(text: string): string {
  return stripIllegal(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Attribute values keep their newlines and tabs as character references (parsers normalise raw ones to spaces). */
export function escapeAttribute(text: string): string {
  return escapeText(text)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
}

export type Attributes = Record<string, string | number | undefined>;

export function attributes(attrs: Attributes): string {
  return Object.entries(attrs)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => ` ${name}="${escapeAttribute(String(value))}"`)
    .join('');
}

/** An element with escaped text content, or self-closing when there is none. */
export function element(name: string, attrs: Attributes, text?: string): string {
  return text === undefined || text === ''
    ? `<${name}${attributes(attrs)}/>`
    : `<${name}${attributes(attrs)}>${escapeText(text)}</${name}>`;
}
