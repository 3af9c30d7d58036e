/** The slice of the DOM the walker needs; linkedom's nodes satisfy it. */
interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
}

const SKIP = new Set([
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
  return out
    .join('')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function walk(node: DomNode, out: string[], pre: boolean): void {
  if (node.nodeType === 3) {
    const text = node.textContent ?? '';
    out.push(pre ? text : text.replace(/\s+/g, ' '));
    return;
  }
  if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
  const name = node.nodeName.toUpperCase();
  if (SKIP.has(name)) return;
  const children = () => {
    // linkedom builds `childNodes` afresh on every read: read it once, or a long page takes quadratic time.
    const kids = node.childNodes;
    for (let i = 0; i < kids.length; i++) walk(kids[i]!, out, pre || name === 'PRE');
  };
  const heading = /^H([1-6])$/.exec(name);
  if (heading) {
    out.push(`\n\n${'#'.repeat(Number(heading[1]))} `);
    children();
    out.push('\n\n');
  } else if (name === 'LI') {
    out.push('\n- ');
    children();
    out.push('\n');
  } else if (name === 'BR') {
    out.push('\n');
  } else if (name === 'TR') {
    out.push('\n');
    children();
    out.push('\n');
  } else if (name === 'TD' || name === 'TH') {
    children();
    out.push(' | ');
  } else if (name === 'PRE') {
    out.push('\n\n');
    children();
    out.push('\n\n');
  } else if (BLOCK.has(name)) {
    out.push('\n\n');
    children();
    out.push('\n\n');
  } else {
    children();
  }
}
