import type { List, Nodes, PhrasingContent, Root, RootContent, Table } from 'mdast';
import { toString as textOf } from 'mdast-util-to-string';
import { bareUrls } from '../../ports/markdown/bare-urls.js';
import { confineLinks } from '../../ports/markdown/confine-links.js';
import { definitionEntries, readMarkdown } from '../../ports/markdown/read-markdown.js';

/**
 * Markdown (as the model writes it) to Slack mrkdwn, from the same reading of
 * Markdown the citations use, so both agree on what is code and what is a
 * link. Everything that comes from the model or a web page goes through here,
 * so this is also where it is made harmless: `&`, `<` and `>` are escaped
 * everywhere (code included, as Slack requires), which turns `<!channel>`,
 * `<!here>`, `<@U…>` and `<!subteam^…>` into visible text that pings nobody;
 * plain `@channel`, `@here` and `@everyone` get a zero-width space. Only links
 * we build ourselves come out as `<url|label>`.
 */

/** Source number → link target, for citations; undefined leaves `[n]` as plain text (knowledge-base sources). */
export type CitationLink = (n: number) => string | undefined;

export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Untrusted plain text for a mrkdwn field: escaped and unable to ping anyone. */
export function safeText(text: string): string {
  return defang(escapeMrkdwn(text));
}

/** Text as one safe sentence (a failure's reason), ending in a full stop if it had no ending of its own. */
export function safeSentence(text: string): string {
  const trimmed = text.trim();
  return safeText(/[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`);
}

function defang(text: string): string {
  return text.replace(/@(channel|here|everyone)\b/gi, '@\u200b$1');
}

/** A link Slack will render; `|` and `>` cannot appear in a label, nor spaces or `>` in the URL. */
export function mrkdwnLink(url: string, label: string): string {
  const safeUrl = url
    .replace(/&/g, '&amp;')
    .replace(/</g, '%3C')
    .replace(/>/g, '%3E')
    .replace(/\|/g, '%7C')
    .replace(/ /g, '%20');
  const safeLabel = safeText(label).replace(/\|/g, '¦');
  return `<${safeUrl}|${safeLabel}>`;
}

interface Context {
  citation: CitationLink;
  definitions: Map<string, { url: string; title: string | null }>;
  /** Inside a heading or table header: emphasis marks are dropped (the whole line is bold). */
  plain: boolean;
}

/** A source a text may cite and link to. */
export interface CitedSource {
  n: number;
  url?: string;
}

/**
 * What the model (or a page through it) wrote, for Slack: the link policy
 * first (only links to `sources` stay live; see confineLinks), then the
 * rendering, citations `[n]` linked to their sources. Every model text the
 * thread shows (questions, plan, summary, report) comes through here.
 */
export function modelMrkdwn(markdown: string, sources: readonly CitedSource[] = []): string {
  const urls = new Map(sources.flatMap((s) => (s.url ? [[s.n, s.url] as const] : [])));
  return markdownToMrkdwn(confineLinks(markdown, urls.values()), (n) => urls.get(n));
}

/** The rendering alone, links as they are written: for text the link policy has already seen. */
export function markdownToMrkdwn(markdown: string, citation: CitationLink = () => undefined): string {
  const tree = readWithAutolinks(markdown.replace(/\r\n?/g, '\n'));
  const definitions = definitionEntries(tree);
  return blocks(tree.children, { citation, definitions, plain: false }).trim();
}

/**
 * The Markdown read with its bare URLs written as `<url>` first, so `~~` or
 * `*` inside one is never read as a mark (read again only when there are some).
 */
function readWithAutolinks(markdown: string): Root {
  // Entities stay as typed: `&lt;!channel&gt;` from the model is shown as those characters, escaped.
  const tree = readMarkdown(markdown, { literalEntities: true });
  const bare = bareUrls(markdown, tree);
  if (bare.length === 0) return tree;
  let out = '';
  let position = 0;
  for (const { start, end } of bare) {
    out += `${markdown.slice(position, start)}<${markdown.slice(start, end)}>`;
    position = end;
  }
  return readMarkdown(out + markdown.slice(position), { literalEntities: true });
}

function blocks(nodes: RootContent[], ctx: Context, depth = 0): string {
  return nodes
    .map((node) => block(node, ctx, depth))
    .filter(Boolean)
    .join('\n\n');
}

function block(node: RootContent, ctx: Context, depth: number): string {
  switch (node.type) {
    case 'paragraph':
      return inline(node.children, ctx);
    case 'heading':
      return bold(inline(node.children, { ...ctx, plain: true }));
    case 'thematicBreak':
      return '───';
    case 'blockquote':
      // Slack quotes one level deep: a nested quote's lines are already quoted, not quoted twice.
      return blocks(node.children, ctx, depth)
        .split('\n')
        .map((line) => (line.startsWith('> ') ? line : `> ${line}`))
        .join('\n');
    case 'list':
      return list(node, ctx, depth);
    case 'code':
      return codeBlock(node.value);
    case 'table':
      return table(node, ctx);
    case 'definition':
      return '';
    case 'footnoteDefinition':
      return `[^${safeText(node.label ?? node.identifier)}] ${blocks(node.children, ctx, depth)}`;
    default:
      return safeText(textOf(node));
  }
}

/**
 * A code block, alone on its lines. A line of backticks inside (a `~~~` block
 * may hold one) gets a zero-width space first, so it cannot close the block.
 */
function codeBlock(value: string): string {
  return `\`\`\`\n${escapeMrkdwn(value).replace(/^(\s*)```/gm, '$1\u200b```')}\n\`\`\``;
}

function list(node: List, ctx: Context, depth: number): string {
  const indent = '    '.repeat(depth);
  let number = node.start ?? 1;
  return node.children
    .map((item) => {
      const marker = node.ordered ? `${number++}.` : depth ? '◦' : '•';
      const check = item.checked === true ? '☑ ' : item.checked === false ? '☐ ' : '';
      const lines: string[] = [];
      item.children.forEach((child, i) => {
        if (child.type === 'list') {
          lines.push(list(child, ctx, depth + 1));
          return;
        }
        const text = block(child, ctx, depth + 1);
        // Code stays at the line start so Slack (and the splitter) see its fences.
        if (child.type === 'code') {
          if (i === 0) lines.push(`${indent}${marker} ${check}`.trimEnd());
          lines.push(text);
          return;
        }
        const body = text.split('\n').join(`\n${indent}    `);
        lines.push(i === 0 ? `${indent}${marker} ${check}${body}` : `${indent}    ${body}`);
      });
      if (lines.length === 0) lines.push(`${indent}${marker} ${check}`.trimEnd());
      return lines.join('\n');
    })
    .join('\n');
}

/** Tables become one line per row so citations inside them stay links; the header row is bold. */
function table(node: Table, ctx: Context): string {
  return node.children
    .map((row, i) => {
      const cells = row.children.map((cell) => inline(cell.children, { ...ctx, plain: i === 0 }));
      return i === 0 ? cells.map((c) => (c ? bold(c) : c)).join(' · ') : `• ${cells.join(' · ')}`;
    })
    .join('\n');
}

const MARKED = new Set(['emphasis', 'strong', 'delete']);
const WORD_END = /[\p{L}\p{N}]$/u;
const WORD_START = /^[\p{L}\p{N}]/u;

function inline(nodes: PhrasingContent[], ctx: Context): string {
  return nodes
    .map((node, i) => {
      const out = phrasing(node, ctx);
      if (ctx.plain || !MARKED.has(node.type) || out === '') return out;
      // Slack ignores marks inside a word ("he*l*lo"); a zero-width space lets them count.
      const before = i > 0 && WORD_END.test(textOf(nodes[i - 1]!)) ? '\u200b' : '';
      const after = i < nodes.length - 1 && WORD_START.test(textOf(nodes[i + 1]!)) ? '\u200b' : '';
      return `${before}${out}${after}`;
    })
    .join('');
}

function phrasing(node: PhrasingContent, ctx: Context): string {
  switch (node.type) {
    case 'text':
      return text(node.value, ctx.citation);
    case 'emphasis':
      return ctx.plain ? inline(node.children, ctx) : mark('_', inline(node.children, ctx));
    case 'strong':
      return ctx.plain ? inline(node.children, ctx) : mark('*', inline(node.children, ctx));
    case 'delete':
      return ctx.plain ? inline(node.children, ctx) : mark('~', inline(node.children, ctx));
    case 'inlineCode':
      // Slack's inline code cannot hold a backtick; a modifier letter grave looks the same.
      return `\`${escapeMrkdwn(node.value).replace(/`/g, 'ˋ')}\``;
    case 'break':
      return '\n';
    case 'link':
      return link(node.url, textOf(node), node);
    case 'image':
      // An image's label: its alt text, else its title, else its URL.
      return link(node.url, node.alt || node.title || '', node);
    case 'linkReference':
    case 'imageReference': {
      const definition = ctx.definitions.get(node.identifier);
      const url = definition?.url;
      const label = node.type === 'imageReference' ? node.alt || definition?.title || '' : textOf(node);
      // Without a definition it is text as written: `[1]` is a citation, `[abc]` stays `[abc]`.
      if (!url) return text(node.type === 'imageReference' ? `![${label}]` : `[${label}]`, ctx.citation);
      return link(url, label, node);
    }
    case 'footnoteReference':
      return `[^${safeText(node.label ?? node.identifier)}]`;
    default:
      return safeText(textOf(node));
  }
}

/** Every Markdown link form as a Slack link: titles dropped, an empty label shows the URL; mail links stay text. */
function link(url: string, label: string, node: Nodes): string {
  if (!/^https?:/i.test(url)) return safeText(label || textOf(node) || url);
  return mrkdwnLink(url, label.trim() || url);
}

/** Slack needs its marks against the words: surrounding spaces move outside. */
function mark(symbol: string, inner: string): string {
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(inner)!;
  return match[2] ? `${match[1]}${symbol}${match[2]}${symbol}${match[3]}` : inner;
}

const bold = (text: string) => (text ? mark('*', text.replace(/\*/g, '')) : text);

/** Plain text: escaped, defanged, and `[1]` / `[1, 2]` turned into links to their sources. */
function text(value: string, citation: CitationLink): string {
  let out = '';
  let last = 0;
  for (const match of value.matchAll(/\[(\d+(?:\s*,\s*\d+)*)\]/g)) {
    out += safeText(value.slice(last, match.index));
    out += match[1]!
      .split(',')
      .map((part) => {
        const n = Number(part.trim());
        const url = citation(n);
        return url ? mrkdwnLink(url, `[${n}]`) : `[${n}]`;
      })
      .join('');
    last = match.index + match[0].length;
  }
  return out + safeText(value.slice(last));
}
