import { figuresOf, fold, termsOf } from './text-terms.js';

/** The longest quote shown under a source. */
const QUOTE_MAX = 320;

/** What a quote should keep when a sentence is too long to show whole: the words and figures of a claim. */
export interface QuoteFocus {
  terms: string[];
  figures: string[];
}

/**
 * The source's own words from `start` to `end` (whole sentences) as a quote:
 * one line, no heading or list marks; a sentence window longer than
 * QUOTE_MAX is cut at clause boundaries around the clauses that carry the
 * focus (every one with a figure when they fit), with "…" where it was cut.
 */
export function quoteAround(text: string, start: number, end: number, focus: QuoteFocus): string {
  const flat = text
    .slice(start, end)
    .replace(/\s+/g, ' ')
    .replace(/^(?:[#>*-]+\s*)+/, '')
    .trim();
  if (flat.length <= QUOTE_MAX) return flat;
  const clauses = flat.match(/[^,;:，；：、]+(?:[,;:，；：、]\s*|$)/gu) ?? [flat];
  const weights = clauses.map((c) => weigh(c, focus));
  const hasFigure = clauses.map((c) => focus.figures.some((f) => figuresOf(c, true).includes(f)));
  let lo = weights.indexOf(Math.max(...weights));
  let hi = lo;
  const length = (a: number, b: number) => clauses.slice(a, b + 1).join('').length;
  const first = hasFigure.indexOf(true);
  const last = hasFigure.lastIndexOf(true);
  if (first >= 0 && length(Math.min(first, lo), Math.max(last, hi)) <= QUOTE_MAX) {
    lo = Math.min(first, lo);
    hi = Math.max(last, hi);
  }
  for (;;) {
    const left = lo > 0 && length(lo - 1, hi) <= QUOTE_MAX;
    const right = hi < clauses.length - 1 && length(lo, hi + 1) <= QUOTE_MAX;
    if (!left && !right) break;
    if (left && (!right || weights[lo - 1]! >= weights[hi + 1]!)) lo -= 1;
    else hi += 1;
  }
  let body = clauses
    .slice(lo, hi + 1)
    .join('')
    .trim();
  let cut = hi < clauses.length - 1;
  // One clause longer than a quote: its first words, cut where a word ends.
  if (body.length > QUOTE_MAX) {
    body = body.slice(0, QUOTE_MAX - 2).replace(/\s+\S*$/, '');
    cut = true;
  }
  return `${lo > 0 ? '… ' : ''}${body}${cut ? ' …' : ''}`;
}

function weigh(clause: string, focus: QuoteFocus): number {
  const terms = new Set(termsOf(clause));
  const figures = new Set(figuresOf(clause, true));
  return (
    focus.terms.filter((t) => terms.has(t)).length + 2 * focus.figures.filter((f) => figures.has(f)).length
  );
}

/**
 * Where a quote a model copied is in the source, tolerating what models
 * change when copying: quotation marks and apostrophes, dashes, whitespace,
 * case, full-width forms, and "…" (or "...") for words left out. Null when
 * the source does not say it (or the quote is too short to tell).
 */
export function findQuote(text: string, quote: string): { start: number; end: number } | null {
  const source = normalised(text);
  const fragments = normalised(quote)
    .text.replace(/^["'\s]+|["'\s]+$/g, '')
    .split(/\.{3}/)
    .map((f) => f.trim().replace(/^["']+|["']+$/g, ''))
    .filter((f) => f.length >= 3);
  if (fragments.join('').length < 8) return null;
  let from = 0;
  let start = -1;
  let end = -1;
  for (const fragment of fragments) {
    const at = source.text.indexOf(fragment, from);
    if (at < 0) return null;
    if (start < 0) start = at;
    end = at + fragment.length;
    from = end;
  }
  const last = source.at[end - 1]!;
  return { start: source.at[start]!, end: last + (text.codePointAt(last)! > 0xffff ? 2 : 1) };
}

const QUOTE_MARKS = /[“”„‟«»「」『』〝〞＂]/u;
const APOSTROPHES = /[‘’‚‛′＇]/u;
const DASHES = /[‐‑‒–—―−]/u;
const INVISIBLE = /[\u00ad\u200b-\u200d\u2060\ufeff]/u;

/** A text folded for finding quotes, and where each of its characters came from in the original. */
function normalised(text: string): { text: string; at: number[] } {
  let out = '';
  const at: number[] = [];
  let offset = 0;
  for (const ch of text) {
    const here = offset;
    offset += ch.length;
    if (INVISIBLE.test(ch)) continue;
    let folded: string;
    if (/\s/u.test(ch)) folded = ' ';
    else if (QUOTE_MARKS.test(ch)) folded = '"';
    else if (APOSTROPHES.test(ch)) folded = "'";
    else if (DASHES.test(ch)) folded = '-';
    else if (ch === '…') folded = '...';
    else folded = fold(ch);
    if (folded === ' ' && (out.endsWith(' ') || out === '')) continue;
    for (const c of folded) {
      out += c;
      at.push(here);
    }
  }
  return { text: out, at };
}
