import type { FinalReport, ReportChanges } from '../../ports/report.js';
import { day } from '../../sessions/schedules/what-changed.js';
import { context, count, reportLink, type SlackMessage, section } from './messages.js';
import { safeText } from './mrkdwn.js';
import { feedbackBlock } from './report-messages.js';

/**
 * A scheduled run that found nothing material changed: one short message
 * instead of the report, linking the earlier one (this run's report stays
 * in the store, for `sessions show` and the next run's comparison).
 */
export function unchangedMessage(
  report: FinalReport,
  changes: ReportChanges,
  footer: string,
  sessionId: string,
): SlackMessage {
  const since = day(changes.since);
  const moved = [
    changes.added.length ? `${count(changes.added.length, 'source')} added` : '',
    changes.gone.length ? `${count(changes.gone.length, 'source')} gone` : '',
  ].filter(Boolean);
  const sources = `${count(report.sources.length, 'source')} cited${moved.length ? `, ${moved.join(', ')}` : ''}`;
  const text = `:zzz: *Nothing material changed since ${since}*: no new finding, and every earlier finding still has support (${sources}). ${reportLink('The earlier report', changes.earlierSessionId)} still holds.`;
  return {
    text: `Nothing material changed since ${since}.`,
    blocks: [section(text), context(`_${safeText(footer)}_`), feedbackBlock(sessionId)],
  };
}
