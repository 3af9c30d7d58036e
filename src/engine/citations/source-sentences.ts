import { figuresOf, type Script, scriptOf, termsOf } from './text-terms.js';

/** One sentence of a source (or one table row): where it is in the text, and whether it is prose a quote can be. */
export interface Sentence {
  start: number;
  end: number;
  text: string;
  prose: boolean;
  /** A table row: the sentence index of its table's header row (its own for the header). */
  header?: number;
}

/** A source's text read once for many claims. */
export interface SourceSentences {
  text: string;
  sentences: Sentence[];
  script: Script;
  terms: Set<string>[];
  figures: Set<string>[];
  /** Which sentences hold a term or a figure. */
  index: Map<string, number[]>;
}

const SENTENCES = new Intl.Segmenter('en', { granularity: 'sentence' });

/**
 * A source read for evidence: its sentences (a line's, by ICU), and its
 * table rows whole (Markdown and kept pages' " | " rows, tab-separated
 * lines, CSV), each knowing its table's header, whose units ("US$ billion",
 * "万辆") also give a row's figures their scale, so "1,085.2" under "Total
 * assets (US$ billion)" is found as 1.0852 trillion too.
 */
export function readSource(text: string): SourceSentences {
  const sentences: Sentence[] = [];
  const lines = [...text.matchAll(/[^\n]+/g)];
  const rows = tableLines(lines.map((l) => l[0]));
  let header = -1;
  lines.forEach((line, i) => {
    if (rows[i]) {
      const trimmed = line[0].trim();
      const start = line.index + line[0].indexOf(trimmed);
      if (!rows[i - 1]) header = sentences.length;
      if (!/^[\s|:+-]+$/.test(trimmed))
        sentences.push({ start, end: start + trimmed.length, text: trimmed, prose: false, header });
      return;
    }
    // Lines first: a heading or a list item ends where its line does.
    for (const { segment, index } of SENTENCES.segment(line[0])) {
      const trimmed = segment.trim();
      if (trimmed.length <= 1) continue;
      const start = line.index + index + segment.indexOf(trimmed);
      sentences.push({ start, end: start + trimmed.length, text: trimmed, prose: isProse(trimmed) });
    }
  });
  const terms = sentences.map((s) => new Set(termsOf(s.text)));
  const figures = sentences.map((s, i) => {
    const found = new Set(figuresOf(s.text, true));
    if (s.header !== undefined && s.header !== i)
      for (const f of scaledCells(sentences[s.header]!.text, s.text)) found.add(f);
    return found;
  });
  const index = new Map<string, number[]>();
  const add = (key: string, i: number) => {
    const list = index.get(key);
    if (!list) index.set(key, [i]);
    else if (list.at(-1) !== i) list.push(i);
  };
  terms.forEach((set, i) => {
    for (const t of set) add(`t:${t}`, i);
  });
  figures.forEach((set, i) => {
    for (const f of set) add(`f:${f}`, i);
  });
  return { text, sentences, script: scriptOf(text), terms, figures, index };
}

/** A table row as a reader sees it, marked as a table: "(table) Rank | Company → 1 | Allianz". */
export function tableRowText(source: SourceSentences, i: number): string {
  const row = source.sentences[i]!;
  const cells = (text: string) => cellsOf(text).filter(Boolean).join(' | ');
  if (row.header === undefined || row.header === i) return `(table) ${cells(row.text)}`;
  return `(table) ${cells(source.sentences[row.header]!.text)} → ${cells(row.text)}`;
}

/** Which lines are table rows: cells split by "|" or tabs, or runs of lines with the same number of commas (CSV). */
function tableLines(lines: string[]): boolean[] {
  const rows = lines.map((l) => (l.match(/\|/g) ?? []).length >= 2 || (l.match(/\t/g) ?? []).length >= 1);
  // CSV: commas that are not prose's (prose puts a space after each and ends its sentence).
  const csv = (l: string) => /^[^,]+(,[^,]*){2,}$/.test(l) && !/[.!?。]$/.test(l.trim()) && /,\S/.test(l);
  const commas = lines.map((l) => (csv(l) ? count(l, ',') : 0));
  for (let i = 0; i < lines.length; i++) {
    if (!commas[i]) continue;
    const same = (j: number) => j >= 0 && j < lines.length && commas[j] === commas[i];
    if (same(i - 1) || same(i + 1)) rows[i] = true;
  }
  return rows;
}

function count(text: string, ch: string): number {
  return text.split(ch).length - 1;
}

/** A unit's magnitude word in a header cell ("US$ billion", "万辆", "млн т"). */
const UNIT_WORD =
  /\b(thousand|million|billion|trillion|bn|mn)\b|(万亿|百万|千万|万|萬|亿|億|兆)|(тыс|млн|млрд|трлн)/u;

function cellsOf(row: string): string[] {
  const separator = row.includes('|') ? '|' : row.includes('\t') ? '\t' : ',';
  const cells = row.split(separator).map((c) => c.trim());
  if (separator === '|' && cells[0] === '') cells.shift();
  return cells;
}

/** The row's figures scaled by its column's unit in the header: "1,085.2" under "(US$ billion)" as 1.0852e12. */
function scaledCells(header: string, row: string): string[] {
  const units = cellsOf(header).map((cell) => UNIT_WORD.exec(cell.toLowerCase())?.[0]);
  if (!units.some(Boolean)) return [];
  return cellsOf(row).flatMap((cell, i) => {
    const unit = units[i];
    return unit && /\d/.test(cell) ? figuresOf(`${cell.replace(/[^\d.,\s]/g, '')} ${unit}`, true) : [];
  });
}

/**
 * Prose a quote can be: not a table row, a heading or a title — a sentence
 * of some length that ends as sentences do (or is long enough to be one).
 */
function isProse(sentence: string): boolean {
  if (/^#/.test(sentence) || (sentence.match(/\|/g) ?? []).length >= 2 || sentence.includes('\t'))
    return false;
  const unspaced = (
    sentence.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu) ?? []
  ).length;
  const words = sentence.split(/\s+/).length + unspaced / 2;
  if (words < 6) return false;
  return /[.!?。！？…:;)"'”’»」]$/.test(sentence) || sentence.length >= 80;
}
