/**
 * JSON text escaped as Go's `encoding/json` (and jsoniter's standard-library mode) writes it, which is
 * what Yao sends its helper agents: `<`, `>`, `&`, U+2028 and U+2029 as `\u003c`, `\u003e`, `\u0026`,
 * `\u2028`, `\u2029`. The value read back is the same; the text matches Yao's byte for byte.
 */
export function goJsonEscape(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
