import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A fenced code block of a docs page: its language (`''` when none) and its text, as a reader copies it. */
export interface DocBlock {
  lang: string;
  text: string;
}

/** A text's lines, without the newline that ends it. */
export const lines = (text: string): string[] => text.trimEnd().split('\n');

/** A JSON file, parsed. */
export const readJson = (path: string): any => JSON.parse(readFileSync(path, 'utf8'));

/** The repository's `README.md` or a `docs/` page, by its path from the root. */
export function readDoc(path: string): string {
  return readFileSync(fileURLToPath(new URL(`../../../${path}`, import.meta.url)), 'utf8');
}

/**
 * The fenced blocks of the section under `heading` (the heading's text as written, without its `#`s), up to
 * the next heading of any level. Headings inside blocks (a YAML comment, a shell prompt) are not headings.
 */
export function sectionBlocks(doc: string, heading: string): DocBlock[] {
  const blocks: DocBlock[] = [];
  let inSection = false;
  let open: DocBlock | undefined;
  for (const line of doc.split('\n')) {
    const fence = /^```(\w*)\s*$/.exec(line);
    if (open) {
      if (fence && !fence[1]) {
        if (inSection) blocks.push(open);
        open = undefined;
      } else open.text += `${line}\n`;
    } else if (fence) open = { lang: fence[1]!, text: '' };
    else if (/^#{1,6} /.test(line)) {
      if (inSection) break;
      inSection = line.replace(/^#+ /, '') === heading;
    }
  }
  if (!blocks.length) throw new Error(`no fenced block under the heading "${heading}"`);
  return blocks;
}

/** The one block of `lang` under `heading`, or the `index`-th of them. */
export function sectionBlock(doc: string, heading: string, lang: string, index = 0): string {
  const found = sectionBlocks(doc, heading).filter((block) => block.lang === lang);
  const block = found[index];
  if (!block) throw new Error(`no ${lang || 'plain'} block #${index + 1} under "${heading}" (${found.length} found)`);
  return block.text;
}
