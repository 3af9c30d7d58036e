import type { PhrasingContent, RootContent } from 'mdast';
import { readMarkdown } from '../ports/markdown/read-markdown.js';

/** A run of text as both documents write it: its marks, and where it links (a page, or a source in the list). */
export interface Run {
  text: string;
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
  /** An address outside the document. */
  url?: string;
  /** A numbered source in the document's list (`source-n`). */
  source?: number;
}

/** What a report document is made of, whatever it is written to. */
export type DocBlock =
  | { kind: 'heading'; level: number; runs: Run[] }
  | { kind: 'paragraph'; runs: Run[] }
  | { kind: 'quote'; runs: Run[] }
  | { kind: 'list'; ordered: boolean; items: Run[][]; start?: number }
  | { kind: 'table'; header: Run[][]; rows: Run[][][] }
  | { kind: 'code'; text: string };

/**
 * A report's Markdown as document blocks: headings, paragraphs, lists,
 * tables, quotes and code, with `[n]` citations as links to the numbered
 * source list (when that source is in it) and other links kept only to the
 * addresses given (the report's confined links).
 */
export function documentBlocks(markdown: string, sources: ReadonlySet<number>): DocBlock[] {
  const tree = readMarkdown(markdown);
  return tree.children.flatMap((node) => block(node, sources));
}

function block(node: RootContent, sources: ReadonlySet<number>): DocBlock[] {
  const runs = (children: PhrasingContent[]) => inline(children, {}, sources);
  switch (node.type) {
    case 'heading':
      return [{ kind: 'heading', level: node.depth, runs: runs(node.children) }];
    case 'paragraph':
      return [{ kind: 'paragraph', runs: runs(node.children) }];
    case 'blockquote':
      return node.children.flatMap((c) =>
        c.type === 'paragraph' ? [{ kind: 'quote' as const, runs: runs(c.children) }] : block(c, sources),
      );
    case 'list':
      return [
        {
          kind: 'list',
          ordered: Boolean(node.ordered),
          ...(node.start ? { start: node.start } : {}),
          items: node.children.map((item) =>
            item.children.flatMap((c, i) => [
              ...(i > 0 ? [{ text: ' ' }] : []),
              ...(c.type === 'paragraph'
                ? runs(c.children)
                : c.type === 'list'
                  ? nestedText(c, sources)
                  : []),
            ]),
          ),
        },
      ];
    case 'table': {
      const [head, ...body] = node.children.map((row) => row.children.map((cell) => runs(cell.children)));
      return [{ kind: 'table', header: head ?? [], rows: body }];
    }
    case 'code':
      return [{ kind: 'code', text: node.value }];
    default:
      return [];
  }
}

/** A list inside a list item, as its items' text on new lines (documents keep one level of lists). */
function nestedText(list: Extract<RootContent, { type: 'list' }>, sources: ReadonlySet<number>): Run[] {
  return list.children.flatMap((item) => [
    { text: '\n– ' },
    ...item.children.flatMap((c) => (c.type === 'paragraph' ? inline(c.children, {}, sources) : [])),
  ]);
}

function inline(nodes: PhrasingContent[], marks: Omit<Run, 'text'>, sources: ReadonlySet<number>): Run[] {
  return nodes.flatMap((node): Run[] => {
    switch (node.type) {
      case 'text':
        return citations(node.value, marks, sources);
      case 'strong':
        return inline(node.children, { ...marks, bold: true }, sources);
      case 'emphasis':
        return inline(node.children, { ...marks, italic: true }, sources);
      case 'delete':
        return inline(node.children, marks, sources);
      case 'inlineCode':
        return [{ text: node.value, ...marks, code: true }];
      case 'link': {
        const label = inline(node.children, marks, sources);
        const cited = /^\[?(\d+)\]?$/.exec(label.map((r) => r.text).join(''));
        if (cited && sources.has(Number(cited[1])))
          return [{ text: `[${cited[1]}]`, ...marks, source: Number(cited[1]) }];
        return label.map((r) => ({ ...r, url: node.url }));
      }
      case 'break':
        return [{ text: '\n' }];
      default:
        return 'children' in node ? inline(node.children as PhrasingContent[], marks, sources) : [];
    }
  });
}

/** Plain text with its `[n]` citations split out as links to the source list. */
function citations(text: string, marks: Omit<Run, 'text'>, sources: ReadonlySet<number>): Run[] {
  return text.split(/(\[\d+(?:\s*,\s*\d+)*\])/).flatMap((part): Run[] => {
    if (!part) return [];
    const numbers = /^\[(\d+(?:\s*,\s*\d+)*)\]$/
      .exec(part)?.[1]
      ?.split(/\s*,\s*/)
      .map(Number);
    if (!numbers?.every((n) => sources.has(n))) return [{ text: part, ...marks }];
    return numbers.map((n) => ({ text: `[${n}]`, ...marks, source: n }));
  });
}
