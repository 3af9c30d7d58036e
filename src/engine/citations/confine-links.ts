import type { Nodes } from 'mdast';
import { toString as textOf } from 'mdast-util-to-string';
import { bareUrls } from '../markdown/bare-urls.js';
import { definitionsOf, readMarkdown, span, walk } from '../markdown/read-markdown.js';
import { canonicalUrl } from '../sources/canonical-url.js';

type Edit = { start: number; end: number; text: string };

/**
 * Keeps a link in the report live only when it points at one of the
 * session's sources; any other link (one a page's prompt injection talked the
 * model into, say) becomes its label and its domain as plain text, so nobody
 * is one click away from an address nobody researched. Links are found by the
 * shared Markdown reading (inline, reference, image, autolink, definition)
 * and bare URLs by `bareUrls`. Code is left alone.
 */
export function confineLinks(markdown: string, sourceUrls: Iterable<string>): string {
  const allowed = new Set<string>();
  for (const url of sourceUrls) {
    const key = canonicalUrl(url);
    if (key) allowed.add(key);
  }
  const isSource = (url: string) => {
    const key = canonicalUrl(url);
    return key !== null && allowed.has(key);
  };
  const tree = readMarkdown(markdown);
  const definitions = definitionsOf(tree);

  const edits: Edit[] = [];
  walk(tree, (node) => {
    const target = linkTarget(node, definitions);
    if (target === undefined) return undefined;
    const [start, end] = span(node);
    if (!'[!<'.includes(markdown[start] ?? '') && node.type !== 'definition') return 'skip'; // a bare URL: below
    if (!isSource(target)) {
      const autolink = markdown[start] === '<';
      edits.push({
        start,
        end,
        text: node.type === 'definition' ? '' : autolink ? domain(target) : plain(node, markdown, target),
      });
    }
    return 'skip';
  });
  for (const bare of bareUrls(markdown, tree)) {
    if (!isSource(bare.url)) edits.push({ start: bare.start, end: bare.end, text: domain(bare.url) });
  }
  return apply(markdown, edits);
}

/** The URL a link-like node points at, or undefined for every other node (mailto links included). */
function linkTarget(node: Nodes, definitions: Map<string, string>): string | undefined {
  let url: string | undefined;
  if (node.type === 'link' || node.type === 'image' || node.type === 'definition') url = node.url;
  else if (node.type === 'linkReference' || node.type === 'imageReference')
    url = definitions.get(node.identifier);
  return url && /^https?:/i.test(url) ? url : undefined;
}

/** A link's label (an image's alt text) and domain; the domain alone when there is no label. */
function plain(node: Nodes, markdown: string, url: string): string {
  const label = (
    node.type === 'image' || node.type === 'imageReference' ? (node.alt ?? '') : labelOf(node, markdown)
  ).trim();
  return label ? `${label} (${domain(url)})` : domain(url);
}

/** The label as written (its emphasis kept); its plain text when it holds an image or link, or positions are missing. */
function labelOf(node: Nodes, markdown: string): string {
  if (!('children' in node) || node.children.length === 0) return '';
  let nested = false;
  walk(node, (n) => {
    if (n !== node && (n.type === 'image' || n.type === 'link' || n.type === 'imageReference')) nested = true;
    return undefined;
  });
  if (nested) return textOf(node);
  const first = node.children[0]!.position?.start.offset;
  const last = node.children.at(-1)!.position?.end.offset;
  return first !== undefined && last !== undefined ? markdown.slice(first, last) : textOf(node);
}

function apply(text: string, edits: Edit[]): string {
  let out = '';
  let position = 0;
  for (const edit of edits.sort((a, b) => a.start - b.start)) {
    if (edit.start < position) continue;
    out += text.slice(position, edit.start) + edit.text;
    position = edit.end;
  }
  return out + text.slice(position);
}

function domain(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return 'a link';
  }
}
