import type { ExportInput } from '../ports/report-export.js';
import { reportBody, sourceLabel } from '../ports/report-markdown.js';
import { type DocBlock, documentBlocks, type Run } from './document-blocks.js';

/** A report as a document: its title, the question and date, the body, and the numbered sources with their quotes. */
export interface ReportOutline {
  title: string;
  meta: string;
  body: DocBlock[];
  sources: { n: number; runs: Run[]; quotes: string[] }[];
  footer: string;
}

export function reportOutline(input: ExportInput): ReportOutline {
  const { report } = input;
  const { title, body } = reportBody(input.question, report);
  const numbers = new Set(report.sources.map((s) => s.n));
  return {
    title,
    meta: `Question: ${input.question.replace(/\s+/g, ' ').trim()} · ${input.date.slice(0, 10)}`,
    body: documentBlocks(body, numbers),
    sources: report.sources.map((s) => {
      const { title: name, detail } = sourceLabel(s);
      return {
        n: s.n,
        runs: [
          { text: `[${s.n}] `, bold: true },
          { text: name, ...(s.url ? { url: s.url } : {}) },
          ...(detail ? [{ text: `, ${detail}` }] : []),
        ],
        quotes: s.quotes ?? [],
      };
    }),
    footer: input.footer,
  };
}
