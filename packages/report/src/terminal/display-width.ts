/**
 * Terminal columns, for layouts that align CJK text: wide characters (CJK, Hangul, full-width forms,
 * most emoji) take two columns, everything else one.
 */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += isWide(char.codePointAt(0)!) ? 2 : 1;
  return width;
}

/** Cuts to `columns` and pads with spaces to exactly `columns`, counting wide characters as two. */
export function fit(text: string, columns: number): string {
  let out = '';
  let width = 0;
  for (const char of text) {
    const w = isWide(char.codePointAt(0)!) ? 2 : 1;
    if (width + w > columns) break;
    out += char;
    width += w;
  }
  return out + ' '.repeat(columns - width);
}

export function padEnd(text: string, columns: number): string {
  return text + ' '.repeat(Math.max(0, columns - displayWidth(text)));
}

function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0x303e) ||
    (code >= 0x3041 && code <= 0x33ff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xa000 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}
