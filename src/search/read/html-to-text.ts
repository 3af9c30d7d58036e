/** The slice of the DOM the walker needs; linkedom's nodes satisfy it. */
interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
}

/** Elements whose text is never read. */
export const SKIP = new Set([
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'SVG',
  'CANVAS',
  'IFRAME',
  'OBJECT',
  'BUTTON',
  'SELECT',
]);
const BLOCK = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'BODY',
  'DD',
  'DETAILS',
  'DIV',
  'DL',
  'DT',
  'FIELDSET',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'FORM',
  'HEADER',
  'HR',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'SECTION',
  'SUMMARY',
  'TABLE',
  'TBODY',
  'THEAD',
  'TFOOT',
  'UL',
  'CAPTION',
]);

/**
 * Text with its structure kept: paragraphs as blank-line-separated blocks,
 * headings as Markdown headings, list items as "- ", table rows on one line
 * with cells separated by " | ". A model reads this far better than
 * `textContent`, which runs paragraphs together.
 */
export function htmlToText(root: DomNode): string {
  const out: string[] = [];
  walk(root, out, false);
  return joinText(out);
}

/**
 * What an element adds around its children's text (uppercase tag name):
 * headings as Markdown headings, list items as "- ", table rows on their own
 * line with cells separated by " | ", blocks as paragraphs. The DOM walker
 * here and the streaming reader (html-stream-text.ts) share it.
 */
export function marks(name: string): readonly [string, string] {
  const heading = /^H([1-6])$/.exec(name);
  if (heading) return [`\n\n${'#'.repeat(Number(heading[1]))} `, '\n\n'];
  if (name === 'LI') return ['\n- ', '\n'];
  if (name === 'BR') return ['\n', ''];
  if (name === 'TR') return ['\n', '\n'];
  if (name === 'TD' || name === 'TH') return ['', ' | '];
  if (name === 'PRE' || BLOCK.has(name)) return ['\n\n', '\n\n'];
  return NONE;
}
const NONE = ['', ''] as const;

/** Text as the walkers add it: whitespace runs made one space, except inside <pre>. */
export const spaced = (text: string, pre: boolean) => (pre ? text : text.replace(/\s+/g, ' '));

/** The walkers' output joined, with the blank lines around blocks made at most one. */
export function joinText(out: string[]): string {
  return out
    .join('')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function walk(node: DomNode, out: string[], pre: boolean): void {
  if (node.nodeType === 3) {
    out.push(spaced(node.textContent ?? '', pre));
    return;
  }
  if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
  const name = node.nodeName.toUpperCase();
  if (SKIP.has(name)) return;
  const [open, close] = marks(name);
  out.push(open);
  // linkedom builds `childNodes` afresh on every read: read it once, or a long page takes quadratic time.
  const kids = node.childNodes;
  for (let i = 0; i < kids.length; i++) walk(kids[i]!, out, pre || name === 'PRE');
  out.push(close);
}
