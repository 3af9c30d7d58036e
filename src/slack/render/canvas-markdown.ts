import { readMarkdown, span, walk } from '../../ports/markdown/read-markdown.js';
import type { FinalReport } from '../../ports/report.js';
import { reportBody, sourceList } from '../../ports/report-markdown.js';
import { oneLine } from './messages.js';

/** canvases.create takes at most 1 MiB of Markdown (docs.slack.dev, canvases.create). */
export const CANVAS_MAX_CHARS = 1_048_576;
const TITLE_MAX = 150;

export interface CanvasDocument {
  title: string;
  markdown: string;
}

/**
 * The whole report as a canvas: titled after the question (or the report's
 * own title), citations linked to their sources, the numbered source list and
 * the usage line at the end. Canvas Markdown has headings h1–h3 only, so
 * deeper ones become h3. What would mention someone in a canvas (`![](@U…)`,
 * `<!channel>`, `<@U…>`) is shown as text: a report never pings anyone.
 */
export function canvasDocument(question: string, report: FinalReport, footer: string): CanvasDocument {
  const { title, body } = reportBody(question, report);
  const urls = new Map(report.sources.map((s) => [s.n, s.url]));
  const parts = [canvasBody(body, (n) => urls.get(n))];
  if (report.sources.length) parts.push(sourceList(report));
  parts.push(`_${footer}_`);
  return { title: oneLine(title, TITLE_MAX), markdown: parts.join('\n\n').slice(0, CANVAS_MAX_CHARS) };
}

type Edit = [start: number, end: number, text: string];

function canvasBody(markdown: string, urlOf: (n: number) => string | undefined): string {
  const edits: Edit[] = [];
  walk(readMarkdown(markdown), (node) => {
    const [start, end] = span(node);
    switch (node.type) {
      case 'code':
      case 'inlineCode':
      case 'link':
      case 'linkReference':
        return 'skip';
      case 'heading':
        if (node.depth > 3 && markdown.startsWith('#'.repeat(node.depth), start))
          edits.push([start, start + node.depth, '###']);
        return undefined;
      case 'image':
        // `![](@U123)` and `![](#C123)` are a canvas's mentions.
        if (/^[@#]/.test(node.url)) edits.push([start, end, escapeText(node.alt || node.url)]);
        return 'skip';
      case 'html':
        edits.push([start, end, markdown.slice(start, end).replaceAll('<', '&lt;')]);
        return 'skip';
      case 'text':
        edits.push(...textEdits(markdown, start, end, urlOf));
        return undefined;
      default:
        return undefined;
    }
  });
  let out = '';
  let at = 0;
  for (const [start, end, text] of edits.sort((a, b) => a[0] - b[0])) {
    if (start < at) continue;
    out += markdown.slice(at, start) + text;
    at = end;
  }
  return out + markdown.slice(at);
}

/** `[2, 5]` → `[[2](url2), [5](url5)]`; `<@U…>`, `<!here>` and a typed `<url|label>` lose their power. */
function textEdits(markdown: string, start: number, end: number, urlOf: (n: number) => string | undefined) {
  const edits: Edit[] = [];
  const source = markdown.slice(start, end);
  for (const match of source.matchAll(/\[(\d+(?:\s*,\s*\d+)*)\]|</g)) {
    const at = start + match.index;
    if (!match[1]) {
      edits.push([at, at + 1, '&lt;']);
      continue;
    }
    const numbers = match[1].split(',').map((part) => Number(part.trim()));
    if (!numbers.some((n) => urlOf(n))) continue;
    const links = numbers.map((n) => {
      const url = urlOf(n);
      return url ? `[${n}](${destination(url)})` : String(n);
    });
    edits.push([at, at + match[0].length, `[${links.join(', ')}]`]);
  }
  return edits;
}

/** A link destination that no parenthesis or space in the URL can end early. */
function destination(url: string): string {
  return url.replace(/[()\s<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

function escapeText(text: string): string {
  return text.replace(/[\\`*_[\]<>!#@]/g, (c) => `\\${c}`);
}
