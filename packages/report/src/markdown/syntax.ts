/** Markdown building blocks that keep user data from breaking the document's structure. */

/**
 * Neutralises what GitHub would read as HTML (a `<` opening a tag) or an entity (`&amp;`), and leaves
 * every other character as typed so that the raw file stays readable.
 */
function noHtml(text: string): string {
  return text.replace(/&(?=#?\w+;)/g, '&amp;').replace(/<(?=[A-Za-z/!?])/g, '&lt;');
}

/** Text for a heading or a paragraph: one line, and no raw HTML from user data. */
export function inline(text: string): string {
  return noHtml(text.replace(/\s+/g, ' ').trim());
}

/** A table cell: `|` escaped, newlines as `<br>`, HTML in user data shown literally. */
export function cell(text: string): string {
  return noHtml(text)
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/\r?\n|\r/g, '<br>');
}

export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(header), `| ${header.map(() => '---').join(' | ')} |`, ...rows.map(line)].join('\n');
}

/** A fenced block whose fence is longer than any backtick run inside, so the content cannot close it. */
export function fence(text: string, lang = 'text'): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const marks = '`'.repeat(Math.max(3, longest + 1));
  return `${marks}${lang}\n${text}\n${marks}`;
}

/** Inline code that survives backticks in the text. */
export function code(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const marks = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${marks}${pad}${flat}${pad}${marks}`;
}
