/**
 * The ids GitHub gives a Markdown page's headings, which `page.md#id` links must name. GitHub's
 * algorithm (github-slugger): the heading's text, lowercased, with every character that is not a
 * letter, mark, number, `_`, space or `-` removed, each space turned into `-`; a repeated id gets
 * `-1`, `-2`, … in the order the headings come.
 */

/** Fenced code blocks, whose `#` lines are not headings. */
const FENCED = /^(```+|~~~+)[^\n]*\n[\s\S]*?^\1\s*$/gm;
/** An ATX heading (`## Title`, up to three spaces in, an optional closing run of `#`). */
const HEADING = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/gm;

/** The ids of the page's headings, in order, as GitHub renders them. */
export function headingIds(markdown: string): string[] {
  const seen = new Map<string, number>();
  return [...markdown.replace(FENCED, '').matchAll(HEADING)].map((match) => unique(slug(headingText(match[1]!)), seen));
}

/** GitHub's slug of a heading's rendered text. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The first use of a slug keeps it; the next ones take the first free `slug-N`, as github-slugger counts. */
function unique(id: string, seen: Map<string, number>): string {
  let result = id;
  while (seen.has(result)) {
    const count = seen.get(id)! + 1;
    seen.set(id, count);
    result = `${id}-${count}`;
  }
  seen.set(result, 0);
  return result;
}

/**
 * The text a heading renders to: code spans keep their content, links and emphasis keep their text,
 * images and HTML tags leave nothing.
 */
function headingText(source: string): string {
  return source
    .split(/(`+[^`]*`+)/)
    .map((part, i) => (i % 2 === 1 ? part.replace(/^`+|`+$/g, '') : inlineText(part)))
    .join('');
}

function inlineText(markdown: string): string {
  return markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/(^|[^\p{L}\p{N}])_{1,2}(?=\S)|(?<=\S)_{1,2}(?=[^\p{L}\p{N}]|$)/gu, '$1');
}
