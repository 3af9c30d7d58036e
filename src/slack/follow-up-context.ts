import type { SessionRow } from '../sessions/records/session-store.js';

/** What a follow-up in the same thread is told about the research before it. */
export function previousResearch(row: SessionRow): string {
  const report = row.report?.markdown ?? '';
  const shortened = report.length > 30_000 ? `${report.slice(0, 30_000)}\n\n[…report shortened]` : report;
  return [
    `Earlier question: ${row.question}`,
    row.plan ? `Its research plan:\n${row.plan}` : '',
    shortened ? `Its report:\n${shortened}` : `That research ended with status "${row.status}".`,
  ]
    .filter(Boolean)
    .join('\n\n');
}
