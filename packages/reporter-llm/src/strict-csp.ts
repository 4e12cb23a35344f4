/**
 * The policy an agent-written HTML report is shown under: as the built-in report's, but with no
 * script at all. The agent's reply quotes case outputs, and an output such as
 * `<img src=x onerror=…>` must stay inert whatever the agent did with it.
 */
export const STRICT_CSP =
  "default-src 'none'; script-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; base-uri 'none'; form-action 'none'";

const META = `<meta http-equiv="Content-Security-Policy" content="${STRICT_CSP}">`;
const DOCTYPE = /^\s*<!doctype[^>]*>/i;

/**
 * The document with the strict policy as its very first element, right after the doctype. An HTML
 * parser puts a `<meta>` met before `<html>` into the (implied) head, so the policy is in force
 * before anything the agent wrote is parsed; a policy the agent adds can only narrow it further.
 */
export function withStrictCsp(html: string): string {
  const doctype = DOCTYPE.exec(html)?.[0] ?? '';
  return `${doctype}${META}\n${html.slice(doctype.length).replace(/^\s*\n/, '')}`;
}
