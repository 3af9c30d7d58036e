import type { Heading, RootContent } from 'mdast';
import { toString as plainText } from 'mdast-util-to-string';
import { readMarkdown, span } from '../ports/markdown/read-markdown.js';

export interface ReportSummary {
  /** The summary's own heading ("Summary", "Zusammenfassung"…), when the report gives it one. */
  heading?: string;
  /** Markdown as the report wrote it, citations included; a partial-report banner is kept. */
  markdown: string;
  /** The section was longer than allowed and was cut at a block (or sentence): the rest is in the full report. */
  cut: boolean;
}

/** Enough for a short answer in a chat message; the report prompt asks for three to six bullets. */
export const SUMMARY_MAX_CHARS = 2500;

/**
 * The report's opening summary, for surfaces that show a short answer and
 * link the whole report. The report prompt asks for a `## Summary` section
 * first; a report without one gives the text before its first heading, or
 * its first paragraphs. Leading quotes (the partial-report banner) stay, so
 * a short answer never hides that the research stopped early. Cut at whole
 * blocks to `maxChars`.
 */
export function reportSummary(markdown: string, maxChars = SUMMARY_MAX_CHARS): ReportSummary {
  const nodes = readMarkdown(markdown).children;
  let i = 0;
  const kept: RootContent[] = [];
  while (nodes[i]?.type === 'blockquote') kept.push(nodes[i++]!);
  // A title of its own is not the summary's heading.
  if (nodes[i]?.type === 'heading' && (nodes[i] as Heading).depth === 1) i += 1;
  let heading: string | undefined;
  const first = nodes[i];
  let limit = nodes.length;
  if (first?.type === 'heading') {
    heading = plainText(first).trim();
    i += 1;
    const next = nodes.findIndex((n, j) => j >= i && n.type === 'heading' && n.depth <= first.depth);
    if (next >= 0) limit = next;
  } else {
    const next = nodes.findIndex((n, j) => j >= i && n.type === 'heading');
    if (next > i) limit = next;
  }
  const parts = kept.map((n) => markdown.slice(...span(n)));
  let length = 0;
  let cut = false;
  for (const node of nodes.slice(i, limit)) {
    if (node.type === 'definition') continue;
    const text = markdown.slice(...span(node));
    if (length > 0 && length + text.length > maxChars) {
      cut = true;
      break;
    }
    // One block longer than the whole allowance: its first sentences.
    parts.push(text.length > maxChars ? cutAtSentence(text, maxChars) : text);
    length += text.length + 2;
    if (text.length > maxChars) {
      cut = true;
      break;
    }
  }
  return { heading, markdown: parts.join('\n\n'), cut };
}

function cutAtSentence(text: string, max: number): string {
  const cut = text.slice(0, max);
  const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('\n'));
  return `${end > max / 2 ? cut.slice(0, end + 1) : cut.trimEnd()}…`;
}
