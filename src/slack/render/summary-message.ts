import type { FinalReport } from '../../ports/report.js';
import { confinedReport } from '../../ports/report-markdown.js';
import { reportSummary } from '../../sessions/report-summary.js';
import { dataBlocks } from './data-blocks.js';
import { context, count, oneLine, reportLink, type SlackMessage, section, sections } from './messages.js';
import { modelMrkdwn, safeText } from './mrkdwn.js';
import { feedbackBlock, moreActions } from './report-messages.js';

/**
 * The report's short answer for the thread: its summary section with
 * citations linked to their sources, a link to the whole report (the canvas),
 * the sources count, the usage line (with the duration) and the feedback buttons.
 */
export function summaryMessage(report: FinalReport, footer: string, sessionId: string): SlackMessage {
  const summary = reportSummary(confinedReport(report));
  const body = modelMrkdwn(summary.markdown, report.sources);
  const heading = `:memo: *${safeText(oneLine(summary.heading ?? 'Summary', 150))}*`;
  const more = summary.cut ? `\n_…more in the ${reportLink('full report')}._` : '';
  // The footer below says how long it took.
  const line = `:page_facing_up: *${reportLink('Full report')}* · ${count(report.sources.length, 'source')}`;
  const plain = summary.markdown.replace(/[*_`#>[\]]/g, '');
  const head = [...sections(`${heading}\n${body}${more}`), section(line)];
  const tail = [context(`_${safeText(footer)}_`), moreActions(sessionId), feedbackBlock(sessionId)];
  const text = safeText(oneLine(`Research summary: ${plain}`, 300));
  const data = dataBlocks(report);
  if (!data) return { text, blocks: [...head, ...tail] };
  return {
    text,
    blocks: [...head, ...data.blocks, ...tail],
    fallback: { text, blocks: [...head, ...data.asText, ...tail] },
  };
}
