import { describeError } from '../../ports/errors.js';
import type { Logger } from '../../ports/logger.js';
import type { FinalReport, ReportChanges } from '../../ports/report.js';
import type { EarlierRun, ReportComparison } from '../../ports/report-changes.js';
import type { SessionRow } from '../records/session-row.js';

export interface WhatChangedDeps {
  /** The schedule's latest finished run before this session, with its report. */
  earlier: (scheduleId: string, sessionId: string) => Promise<EarlierRun | null>;
  comparison: ReportComparison;
  log: Logger;
}

/** Adds what changed since the schedule's earlier run to a scheduled run's report (see run-stored-session). */
export type AddWhatChanged = (
  row: SessionRow,
  report: FinalReport,
  signal: AbortSignal,
) => Promise<FinalReport>;

/**
 * A scheduled run's report, compared with its schedule's earlier run: it
 * opens with "What changed since <date>" and carries the changes (a
 * surface shows a report with nothing material changed as one short
 * message). The first run, or a report that is not a schedule's, is as it
 * was. A comparison that fails says so in the section; the report stays.
 */
export function whatChanged(deps: WhatChangedDeps): AddWhatChanged {
  return async (row, report, signal) => {
    if (!row.scheduleId) return report;
    const earlier = await deps.earlier(row.scheduleId, row.id);
    if (!earlier) return report;
    try {
      const { changes, costUsd } = await deps.comparison.compare(earlier, row.id, report, signal);
      const cost = report.costUsd === null || costUsd === null ? null : report.costUsd + costUsd;
      return { ...report, markdown: `${section(changes)}\n\n${report.markdown}`, costUsd: cost, changes };
    } catch (error) {
      if (signal.aborted) throw error;
      deps.log.warn(
        { err: error, sessionId: row.id },
        'could not compare a scheduled run with the earlier one',
      );
      const why = `_What changed since ${day(earlier.finishedAt.toISOString())} could not be worked out (${describeError(error)}); this is the whole report._`;
      return { ...report, markdown: `${why}\n\n${report.markdown}` };
    }
  };
}

/** "What changed since <date>": each change with its citation (this report's) or the gone source's title. */
export function section(c: ReportChanges): string {
  const lines = [`## What changed since ${day(c.since)}`, ''];
  if (!c.material)
    lines.push('Nothing material: no new finding, and every earlier finding still has support.');
  for (const f of c.newFindings) lines.push(`- **New:** ${f}`);
  for (const d of c.dropped)
    lines.push(
      `- **No longer supported:** ${d.text} (it cited ${d.sources.map((s) => `"${s.title}"`).join(', ')}, gone from this run's sources)`,
    );
  if (c.added.length)
    lines.push(`- **Sources added:** ${c.added.map((s) => `${s.title} [${s.n}]`).join('; ')}`);
  if (c.gone.length) lines.push(`- **Sources gone:** ${c.gone.map((s) => `"${s.title}"`).join('; ')}`);
  if (c.unchecked)
    lines.push(
      `- ${c.unchecked.count} earlier ${c.unchecked.count === 1 ? 'finding' : 'findings'} lost a source and could not be checked: ${c.unchecked.reason}.`,
    );
  return lines.join('\n');
}

/** A day as people write it, "8 March 2027" (UTC). */
export function day(iso: string): string {
  return new Date(iso).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}
