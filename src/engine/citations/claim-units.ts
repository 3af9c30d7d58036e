import { readMarkdown, span, walk } from '../../ports/markdown/read-markdown.js';
import { type CitationSpan, citationSpans } from './citation-spans.js';

/** A sentence, list item or table cell that carries citations: what a claim check checks. */
export interface ClaimUnit {
  /** [start, end) in the report, citations included. */
  start: number;
  end: number;
  /** The claim as plain words: citations, links' targets and Markdown marks left out. */
  text: string;
  cites: CitationSpan[];
}

/**
 * The report's cited claims: every paragraph (in list items and quotes too)
 * and table cell, cut at sentence ends. A citation written after the full
 * stop (`… in 2023. [4]`) belongs to the sentence before it.
 */
export function claimUnits(markdown: string): ClaimUnit[] {
  const cites = citationSpans(markdown);
  const blocks: [number, number][] = [];
  walk(readMarkdown(markdown), (node) => {
    if (node.type === 'code' || node.type === 'heading' || node.type === 'html') return 'skip';
    if (node.type === 'paragraph' || node.type === 'tableCell') {
      blocks.push(span(node));
      return 'skip';
    }
    return undefined;
  });
  const units: ClaimUnit[] = [];
  for (const [start, end] of blocks) {
    const inside = cites.filter((c) => c.start >= start && c.end <= end);
    if (inside.length === 0) continue;
    for (const [from, to] of sentences(markdown, start, end, inside)) {
      const own = inside.filter((c) => c.start >= from && c.end <= to);
      if (own.length === 0) continue;
      units.push({ start: from, end: to, text: plainText(markdown, from, to, own), cites: own });
    }
  }
  return units;
}

/** [start, end) of each sentence in a block; a boundary never falls inside a citation. */
function sentences(text: string, start: number, end: number, cites: CitationSpan[]): [number, number][] {
  const out: [number, number][] = [];
  const block = text.slice(start, end);
  let from = start;
  for (const match of block.matchAll(/[.!?]["'”’)*_]*\s+/g)) {
    let cut = start + match.index + match[0].length;
    // "… in 2023. [4] Next": the citation after the stop is this sentence's.
    for (const c of cites) {
      if (c.start === cut) cut = skipSpaces(text, c.end, end);
    }
    if (cites.some((c) => c.start < cut && c.end > cut)) continue;
    // "e.g. the", "3 vs. 4": a sentence starts with a capital, a digit or a quote.
    if (cut < end && !/^["'“‘(*_[\p{Lu}\d]/u.test(text.slice(cut, cut + 1))) continue;
    if (cut <= from) continue;
    out.push([from, cut]);
    from = cut;
  }
  if (from < end) out.push([from, end]);
  return out;
}

function skipSpaces(text: string, at: number, end: number): number {
  let i = at;
  while (i < end && /[\s.,;:]/.test(text[i]!)) i += 1;
  return i;
}

function plainText(text: string, from: number, to: number, cites: CitationSpan[]): string {
  let out = '';
  let at = from;
  for (const c of cites) {
    out += `${text.slice(at, c.start)} `;
    at = c.end;
  }
  out += text.slice(at, to);
  return out
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`~#>|]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/ ([.,;:!?])/g, '$1')
    .trim();
}
