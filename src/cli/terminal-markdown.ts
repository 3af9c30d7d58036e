import { stripVTControlCharacters, styleText } from 'node:util';
import type { ListItem, Nodes, PhrasingContent, Table } from 'mdast';
import { definitionsOf, readMarkdown } from '../ports/markdown/read-markdown.js';

type Style = Parameters<typeof styleText>[0];

/** Always styled: the caller decided this output is a terminal (styleText's own check differs across Node 20 releases). */
const paint = (style: Style, text: string) => styleText(style, text, { validateStream: false });

/**
 * A report for a terminal: headings in bold, lists with bullets and hanging
 * indents, quotes behind a bar, code in colour without wrapping, links as
 * their text with the address after it, citations `[n]` highlighted, tables
 * in aligned columns, and prose wrapped to `width`. Only for a TTY: piped
 * output stays Markdown.
 */
export function renderForTerminal(markdown: string, width: number): string {
  const tree = readMarkdown(markdown);
  const definitions = definitionsOf(tree);
  const cols = Math.max(30, width);

  const inline = (nodes: PhrasingContent[]): string => nodes.map(phrase).join('');
  function phrase(node: PhrasingContent): string {
    switch (node.type) {
      case 'text':
        return node.value.replace(/\[\d+\]/g, (n) => paint('cyan', n));
      case 'strong':
        return paint('bold', inline(node.children));
      case 'emphasis':
        return paint('italic', inline(node.children));
      case 'delete':
        return paint('strikethrough', inline(node.children));
      case 'inlineCode':
        return paint('cyan', node.value);
      case 'break':
        return '\n';
      case 'link':
      case 'linkReference': {
        const text = inline(node.children);
        const url = node.type === 'link' ? node.url : definitions.get(node.identifier);
        if (/^\[?\d+\]?$/.test(stripVTControlCharacters(text)))
          return paint('cyan', `[${text.replace(/[[\]]/g, '')}]`);
        if (!url || stripVTControlCharacters(text) === url) return paint('underline', text || (url ?? ''));
        return `${paint('underline', text)} ${paint('dim', `(${url})`)}`;
      }
      case 'image':
      case 'imageReference':
        return paint('dim', `[image: ${node.alt ?? ''}]`);
      case 'html':
        return node.value;
      default:
        return 'value' in node ? String(node.value) : '';
    }
  }

  function block(node: Nodes, indent: number): string[] {
    const room = cols - indent;
    switch (node.type) {
      case 'root':
        return blocks(node.children, indent);
      case 'heading': {
        const style: Style =
          node.depth === 1 ? ['bold', 'underline'] : node.depth === 2 ? 'bold' : ['bold', 'dim'];
        return wrap(inline(node.children), room).map((l) => paint(style, l));
      }
      case 'paragraph':
        return wrap(inline(node.children), room);
      case 'blockquote':
        return blocks(node.children, indent + 2).map((l) => `${paint('dim', '│')} ${l}`);
      case 'list':
        return node.children.flatMap((item, i) =>
          listItem(item, node.ordered ? `${(node.start ?? 1) + i}.` : '•', indent),
        );
      case 'code':
        return node.value.split('\n').map((l) => `    ${paint('cyan', l)}`);
      case 'thematicBreak':
        return [paint('dim', '─'.repeat(Math.min(room, 40)))];
      case 'table':
        return table(node);
      case 'html':
        return node.value.split('\n');
      case 'definition':
        return [];
      default:
        return 'children' in node ? blocks(node.children as Nodes[], indent) : [];
    }
  }

  /** Blocks separated by one blank line (a tight list's items are not). */
  function blocks(nodes: Nodes[], indent: number): string[] {
    const out: string[] = [];
    for (const node of nodes) {
      const lines = block(node, indent);
      if (lines.length === 0) continue;
      if (out.length) out.push('');
      out.push(...lines);
    }
    return out;
  }

  function listItem(item: ListItem, marker: string, indent: number): string[] {
    const hang = ' '.repeat(marker.length + 1);
    const check = item.checked === true ? '[x] ' : item.checked === false ? '[ ] ' : '';
    const inner = item.spread
      ? blocks(item.children, indent + hang.length)
      : tight(item.children, indent + hang.length);
    const [first = '', ...rest] = inner;
    return [`${paint('dim', marker)} ${check}${first}`, ...rest.map((l) => (l ? hang + l : l))];
  }

  function tight(nodes: Nodes[], indent: number): string[] {
    return nodes.flatMap((n) => block(n, indent));
  }

  function table(node: Table): string[] {
    const rows = node.children.map((row) => row.children.map((cell) => inline(cell.children)));
    const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => visible(r[c] ?? '')))) ?? [];
    const line = (row: string[]) =>
      row
        .map((cell, c) => cell + ' '.repeat(Math.max(0, widths[c]! - visible(cell))))
        .join(paint('dim', ' │ '));
    const [head, ...body] = rows;
    if (!head) return [];
    return [
      paint('bold', line(head)),
      paint('dim', widths.map((w) => '─'.repeat(w)).join('─┼─')),
      ...body.map(line),
    ];
  }

  return `${block(tree, 0).join('\n')}\n`;
}

const visible = (text: string) => stripVTControlCharacters(text).length;

/** Words wrapped to `width` visible columns; a word longer than a line (a URL) stands alone. */
function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/ +/)) {
      if (!word) continue;
      if (line && visible(line) + 1 + visible(word) > width) {
        out.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    out.push(line);
  }
  return out;
}
