import { confineLinks } from './markdown/confine-links.js';
import { formatDuration } from './progress.js';
import type { CitationCheck, FinalReport, Source } from './report.js';
import { cachedShare, totalTokens, type Usage } from './usage.js';

/** `[3] Title, example.com, 2025-03-02` (without link syntax; surfaces add their own). */
export function sourceLabel(source: Source): { title: string; detail: string } {
  const where = source.url ? domainOf(source.url) : source.path;
  const detail = [where, source.publishedAt?.slice(0, 10)].filter(Boolean).join(', ');
  return { title: source.title || where || `Source ${source.n}`, detail };
}

export function domainOf(url: string): string {
  try {
    return new URL(url).host.replace(/^www\./, '');
  } catch {
    return url;
  }
}

/**
 * `7m 41s · 22 sources seen · 9 pages read (2 could not be read) · 312k tokens · ~$0.48 · session 3f2a…`;
 * shown to the whole channel, so an unknown cost is "cost n/a" (the operator's hint is logged at start-up).
 */
export function usageFooter(report: FinalReport, usage: Usage, sessionId: string, version = 1): string {
  const tokens = totalTokens(usage);
  const tokenText = tokens >= 1000 ? `${Math.round(tokens / 1000)}k` : String(tokens);
  return [
    formatDuration(report.durationMs),
    `${report.sourcesSeen} sources seen`,
    pagesText(usage),
    ...citationFigures(report.citationCheck),
    ...(usage.hostedSearches ? [`${usage.hostedSearches} hosted web searches`] : []),
    tokensText(tokenText, cachedShare(usage)),
    report.costUsd === null ? 'cost n/a' : `~$${report.costUsd.toFixed(2)}`,
    `session ${sessionId}`,
    ...(version > 1 ? [`version ${version}`] : []),
  ].join(' · ');
}

/** `41 of 43 citations checked · 2 moved · 1 removed`, or why they were not checked. */
export function citationFigures(check: CitationCheck | undefined): string[] {
  if (!check || check.citations === 0) return [];
  if (check.checked === 0) return [`citations not checked${check.note ? ` (${check.note})` : ''}`];
  return [
    `${check.checked} of ${check.citations} citations checked`,
    ...(check.moved ? [`${check.moved} moved`] : []),
    ...(check.removed ? [`${check.removed} removed`] : []),
    ...(check.answerOnly ? [`${check.answerOnly} checked against the hosted answer only`] : []),
  ];
}

function tokensText(tokens: string, cached: number | null): string {
  return cached === null
    ? `${tokens} tokens`
    : `${tokens} tokens (${Math.round(cached * 100)}% of input cached)`;
}

function pagesText(usage: Usage): string {
  const read = `${usage.pagesRead} ${usage.pagesRead === 1 ? 'page' : 'pages'} read`;
  return usage.pagesFailed ? `${read} (${usage.pagesFailed} could not be read)` : read;
}

/** The whole report as one Markdown document (the CLI's --out file and the Slack report.md). */
export function reportDocument(question: string, report: FinalReport, footer: string): string {
  const { title, body } = reportBody(question, report);
  const parts = [`# ${title}`, body];
  if (report.sources.length) parts.push(sourceList(report));
  parts.push(`_${footer}_`);
  return `${parts.join('\n\n')}\n`;
}

/**
 * `## Sources` and the numbered list, titles linked to their pages, and under
 * each the checked quotes that support the sentences citing it (page text:
 * confined like the report, so it links nowhere else).
 */
export function sourceList(report: FinalReport): string {
  const sources = report.sources.map((s) => {
    const { title, detail } = sourceLabel(s);
    const link = s.url ? `[${escapeBrackets(title)}](${s.url})` : escapeBrackets(title);
    const quotes = (s.quotes ?? []).map((q) => `\n   - “${escapeMarkdown(q)}”`).join('');
    return `${s.n}. ${link}${detail ? `, ${detail}` : ''}${quotes}`;
  });
  return confineLinks(
    `## Sources\n\n${sources.join('\n')}`,
    report.sources.flatMap((s) => (s.url ? [s.url] : [])),
  );
}

/** The report with the link policy applied (see confineLinks): what every surface shows. */
export function confinedReport(report: FinalReport): string {
  return confineLinks(
    report.markdown,
    report.sources.flatMap((s) => (s.url ? [s.url] : [])),
  );
}

/** The confined report's title and body. */
export function reportBody(question: string, report: FinalReport): { title: string; body: string } {
  return titled(question, confinedReport(report));
}

/**
 * One title: the report's own H1 when it opens with one (after a
 * partial-report banner), else the question's first line; the body without it.
 */
export function titled(question: string, markdown: string): { title: string; body: string } {
  const text = markdown.trimStart();
  const own = /^((?:>[^\n]*\n)*\s*)# ([^\n]*)\n?/.exec(text);
  if (!own) return { title: question.split('\n')[0]!, body: markdown };
  return { title: own[2]!, body: `${own[1]!.trim()}\n\n${text.slice(own[0].length).trimStart()}`.trim() };
}

function escapeBrackets(text: string): string {
  return text.replace(/([[\]])/g, '\\$1');
}

/** Text shown as typed: nothing in it is Markdown syntax. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>#|~!]/g, (c) => `\\${c}`);
}
