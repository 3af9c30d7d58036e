import { stripVTControlCharacters } from 'node:util';
import type { FinalReport } from '../ports/report.js';
import { escapeMarkdown, reportDocument, sourceLabel } from '../ports/report-markdown.js';
import type { Io } from './io.js';
import { showPaged } from './pager.js';
import { renderForTerminal } from './terminal-markdown.js';

/**
 * The report with its sources and footer, as `ask` and `sessions show` print
 * it: in a terminal rendered and paged (without styling under NO_COLOR); on a
 * pipe or in a file the Markdown document `--out` writes, byte for byte.
 */
export async function printReport(
  question: string,
  report: FinalReport,
  footer: string,
  io: Io,
  pager = 'less -FRX',
): Promise<void> {
  if (!io.stdout.isTTY) {
    io.stdout.write(reportDocument(question, report, footer));
    return;
  }
  const width = (io.stdout.columns ?? 100) - 1;
  const shown = `${renderForTerminal(report.markdown, width)}\n${sourceList(report, width)}${renderForTerminal(footer, width)}\n`;
  await showPaged(io.plain ? stripVTControlCharacters(shown) : shown, io.stdout, pager);
}

/** `[n] Title (where)`, its address, and the checked quotes from it, wrapped to the terminal's width. */
function sourceList(report: FinalReport, width: number): string {
  if (!report.sources.length) return '';
  const lines = ['Sources:'];
  for (const s of report.sources) {
    const { title, detail } = sourceLabel(s);
    lines.push(`[${s.n}] ${title}${detail ? ` (${detail})` : ''}${s.url ? `\n    ${s.url}` : ''}`);
    for (const quote of s.quotes ?? [])
      lines.push(indent(renderForTerminal(escapeMarkdown(`“${quote}”`), width - 4)));
  }
  return `${lines.join('\n')}\n\n`;
}

const indent = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
