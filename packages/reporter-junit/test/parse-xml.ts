/**
 * A strict little XML 1.0 reader for the tests: it rejects anything not well-formed (unbalanced
 * tags, raw `<` or `&`, unquoted or duplicate attributes, illegal characters) and returns the tree.
 */
export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const NAME = '[A-Za-z_:][-A-Za-z0-9_:.]*';

function decode(raw: string, where: string): string {
  if (/[<]/.test(raw)) throw new Error(`raw "<" in ${where}`);
  return raw.replace(/&([^;]*);|&/g, (whole, ref: string | undefined) => {
    if (ref === undefined) throw new Error(`raw "&" in ${where}`);
    if (ref.startsWith('#x')) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(Number(ref.slice(1)));
    if (!(ref in ENTITIES)) throw new Error(`unknown entity &${ref}; in ${where}`);
    return ENTITIES[ref]!;
  });
}

export function parseXml(xml: string): XmlNode {
  if (/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u.test(xml))
    throw new Error('character illegal in XML 1.0');
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const root: XmlNode = { name: '#document', attrs: {}, children: [], text: '' };
  const stack = [root];
  const token = new RegExp(`<(/?)(${NAME})((?:\\s+${NAME}\\s*=\\s*"[^"]*")*)\\s*(/?)>|([^<]+)|(<)`, 'gy');
  for (const match of body.matchAll(token)) {
    const [, closing, name, rawAttrs, selfClosing, text, stray] = match;
    const top = stack.at(-1)!;
    if (stray) throw new Error(`malformed tag at offset ${match.index}: ${body.slice(match.index, match.index + 40)}`);
    if (text !== undefined) {
      top.text += decode(text, `text of <${top.name}>`);
      continue;
    }
    if (closing) {
      if (top.name !== name) throw new Error(`</${name}> closes <${top.name}>`);
      stack.pop();
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const [, key, value] of rawAttrs!.matchAll(new RegExp(`(${NAME})\\s*=\\s*"([^"]*)"`, 'g'))) {
      if (key! in attrs) throw new Error(`duplicate attribute ${key} on <${name}>`);
      attrs[key!] = decode(value!, `attribute ${key}`);
    }
    const node: XmlNode = { name: name!, attrs, children: [], text: '' };
    top.children.push(node);
    if (!selfClosing) stack.push(node);
  }
  if (stack.length !== 1) throw new Error(`unclosed <${stack.at(-1)!.name}>`);
  if (root.children.length !== 1 || root.text.trim()) throw new Error('a document has exactly one root element');
  return root.children[0]!;
}

export function findAll(node: XmlNode, name: string): XmlNode[] {
  return node.children.flatMap((child) => [...(child.name === name ? [child] : []), ...findAll(child, name)]);
}
