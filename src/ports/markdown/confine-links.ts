import type { Nodes } from 'mdast';
import { toString as textOf } from 'mdast-util-to-string';
import { canonicalUrl } from '../canonical-url.js';
import { bareUrls, isWrittenLink } from './bare-urls.js';
import { definitionsOf, readMarkdown, span, walk } from './read-markdown.js';

type Edit = { start: number; end: number; text: string };

/**
 * The link policy, the one function every renderer applies to text a model
 * or a web page wrote: a link stays live only when it points at one of the
 * session's sources; any other http(s) link (one a page's prompt injection
 * talked the model into, say) becomes its label and its domain as plain text,
 * so nobody is one click away from an address nobody researched. Links are
 * found by the shared Markdown reading (inline, reference, image, autolink,
 * definition, nested in a source link's label) and bare URLs by `bareUrls`
 * (quoted, after `=`, `www.`, Slack's `<url|label>` typed as text). A link to
 * anything but the web or mail (`![](@U123)`, a canvas mention; `slack://`,
 * `javascript:`) keeps only its text. Code is left alone. Applied until
 * nothing changes, so a label that held a URL is confined too.
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
  let text = markdown;
  for (let pass = 0; pass < 5; pass++) {
    const next = confineOnce(text, isSource);
    if (next === text) break;
    text = next;
  }
  return text;
}

function confineOnce(markdown: string, isSource: (url: string) => boolean): string {
  const tree = readMarkdown(markdown);
  const definitions = definitionsOf(tree);
  const edits: Edit[] = [];
  walk(tree, (node) => {
    const target = linkTarget(node, definitions);
    if (target === undefined) return undefined;
    // A bare URL mdast made a link of: found in the source text below.
    if (!isWrittenLink(node, markdown) && node.type !== 'linkReference' && node.type !== 'imageReference')
      return 'skip';
    const [start, end] = span(node);
    if (/^mailto:/i.test(target)) return 'skip';
    const web = /^https?:/i.test(target);
    if (web && isSource(target)) {
      // A source link stays, its label confined too: an image in it is looked at, a URL in it goes.
      const label = node.type === 'link' && node.children.length ? labelOf(node, markdown) : '';
      const confined = label && confineOnce(label, isSource);
      if (confined === label || markdown[start] === '<') return undefined;
      edits.push({ start, end, text: `[${confined}](<${target}>)` });
      return 'skip';
    }
    const autolink = markdown[start] === '<';
    const text =
      node.type === 'definition'
        ? ''
        : !web
          ? inertLabel(node, markdown)
          : autolink
            ? domain(target)
            : plain(node, markdown, target);
    edits.push({ start, end, text });
    return 'skip';
  });
  for (const bare of bareUrls(markdown, tree)) {
    if (!isSource(bare.url)) edits.push({ start: bare.start, end: bare.end, text: domain(bare.url) });
  }
  return apply(markdown, edits);
}

/** The URL a link-like node points at (any scheme), or undefined for every other node. */
function linkTarget(node: Nodes, definitions: Map<string, string>): string | undefined {
  if (node.type === 'link' || node.type === 'image' || node.type === 'definition') return node.url;
  if (node.type === 'linkReference' || node.type === 'imageReference')
    return definitions.get(node.identifier);
  return undefined;
}

/** What a link to no web page keeps: its label (an image's alt text), never its target. */
function inertLabel(node: Nodes, markdown: string): string {
  return (
    node.type === 'image' || node.type === 'imageReference' ? (node.alt ?? '') : labelOf(node, markdown)
  ).trim();
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
