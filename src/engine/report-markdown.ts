import { formatDuration } from './progress.js';
import type { FinalReport, Source } from './session-state.js';
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
export function usageFooter(report: FinalReport, usage: Usage, sessionId: string): string {
  const tokens = totalTokens(usage);
  const tokenText = tokens >= 1000 ? `${Math.round(tokens / 1000)}k` : String(tokens);
  return [
    formatDuration(report.durationMs),
    `${report.sourcesSeen} sources seen`,
    pagesText(usage),
    tokensText(tokenText, cachedShare(usage)),
    report.costUsd === null ? 'cost n/a' : `~$${report.costUsd.toFixed(2)}`,
    `session ${sessionId}`,
  ].join(' · ');
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
  const sources = report.sources.map((s) => {
    const { title, detail } = sourceLabel(s);
    const link = s.url ? `[${escapeBrackets(title)}](${s.url})` : escapeBrackets(title);
    return `${s.n}. ${link}${detail ? `, ${detail}` : ''}`;
  });
  // One title, first: the report's own H1 when it opens with one (after a partial-report banner), else the question.
  const own = /^((?:>[^\n]*\n)*\s*)(# [^\n]*)\n?/.exec(report.markdown.trimStart());
  const parts = own
    ? [own[2]!, `${own[1]!.trim()}\n\n${report.markdown.trimStart().slice(own[0].length).trimStart()}`.trim()]
    : [`# ${question.split('\n')[0]}`, report.markdown];
  if (sources.length) parts.push(`## Sources\n\n${sources.join('\n')}`);
  parts.push(`_${footer}_`);
  return `${parts.join('\n\n')}\n`;
}

function escapeBrackets(text: string): string {
  return text.replace(/([[\]])/g, '\\$1');
}
