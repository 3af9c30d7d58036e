import type { Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';

/**
 * The one reading of Markdown (CommonMark with GitHub's tables, strikethrough,
 * autolinks, task lists and footnotes) that citation renumbering, the link
 * policy and the Slack rendering share, so they always agree on what is code
 * and what is a link. A single `~` is not strikethrough: reports write "~5%".
 * micromark's own bare-URL syntax is off: it is quadratic after an unclosed
 * `[` (75,000 characters took 3 s); bare URLs in text still become links
 * through mdast's linear pass, and `bareUrls` finds them in the source.
 */
export function readMarkdown(markdown: string, options: { literalEntities?: boolean } = {}): Root {
  // `literalEntities`: `&lt;` stays the four characters typed, for a renderer that shows text as typed.
  const off = ['wwwAutolink', 'protocolAutolink', 'emailAutolink'];
  if (options.literalEntities) off.push('characterReference');
  return fromMarkdown(markdown, {
    extensions: [gfm({ singleTilde: false }), { disable: { null: off } }],
    mdastExtensions: [gfmFromMarkdown()],
  });
}

/** Every node from `tree` down, depth first; `visit` returning 'skip' leaves the node's children out. */
export function walk(tree: Nodes, visit: (node: Nodes) => 'skip' | undefined): void {
  if (visit(tree) === 'skip' || !('children' in tree)) return;
  for (const child of tree.children) walk(child, visit);
}

/** Link reference definitions (`[id]: url "title"`) by identifier: their URLs. */
export function definitionsOf(tree: Root): Map<string, string> {
  return new Map([...definitionEntries(tree)].map(([id, d]) => [id, d.url]));
}

/** Link reference definitions by identifier, with their titles. */
export function definitionEntries(tree: Root): Map<string, { url: string; title: string | null }> {
  const definitions = new Map<string, { url: string; title: string | null }>();
  walk(tree, (node) => {
    if (node.type === 'definition')
      definitions.set(node.identifier, { url: node.url, title: node.title ?? null });
    return undefined;
  });
  return definitions;
}

/** Where a node sits in the text, as [start, end) offsets. */
export function span(node: Nodes): [number, number] {
  return [node.position?.start.offset ?? 0, node.position?.end.offset ?? 0];
}

/** [start, end) of every piece of code (fenced, indented, inline), in order, not overlapping. */
export function codeRanges(tree: Root): [number, number][] {
  const ranges: [number, number][] = [];
  walk(tree, (node) => {
    if (node.type === 'code' || node.type === 'inlineCode') ranges.push(span(node));
    return undefined;
  });
  return ranges.sort((a, b) => a[0] - b[0]);
}
