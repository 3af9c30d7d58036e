import type { KnownBlock } from '@slack/web-api';
import type { FinalReport } from '../../ports/report.js';
import { domainOf, sourceLabel } from '../../ports/report-markdown.js';
import { dataBlocks } from './data-blocks.js';
import { ACTION, button, context, oneLine, type SlackMessage, section } from './messages.js';
import { modelMrkdwn, mrkdwnLink, safeText } from './mrkdwn.js';
import { splitMrkdwn } from './split-mrkdwn.js';

/** The report as as many messages as it needs, split at section and paragraph boundaries, citations linked. */
export function reportMessages(report: FinalReport): SlackMessage[] {
  const mrkdwn = modelMrkdwn(report.markdown, report.sources);
  const parts = splitMrkdwn(mrkdwn);
  return parts.map((part, i) => ({
    text: parts.length > 1 ? `Research report (part ${i + 1} of ${parts.length})` : 'Research report',
    blocks: part.map(section),
  }));
}

/**
 * The numbered cited sources and the usage footer, closing with the feedback
 * buttons; long lists continue in further messages.
 */
export function sourcesMessages(report: FinalReport, footer: string, sessionId: string): SlackMessage[] {
  const lines = report.sources.map((s) => {
    const { title, detail } = sourceLabel(s);
    const name = s.url
      ? mrkdwnLink(s.url, `[${s.n}] ${oneLine(title, 150)}`)
      : `[${s.n}] ${safeText(oneLine(title, 150))}`;
    const where = s.url ? [domainOf(s.url), s.publishedAt?.slice(0, 10)].filter(Boolean).join(', ') : detail;
    return `${name}${where ? `, ${safeText(where)}` : ''}`;
  });
  const body = lines.length ? `*Sources*\n${lines.join('\n')}` : '*Sources*\n_No sources were cited._';
  const parts = splitMrkdwn(body);
  // Without a canvas there is no summary: the report's charts and first table open its sources.
  const data = dataBlocks(report);
  return parts.map((part, i) => {
    const blocks = part.map(section);
    if (i === parts.length - 1)
      blocks.push(context(`_${safeText(footer)}_`), moreActions(sessionId), feedbackBlock(sessionId));
    const text = i === 0 ? 'Sources' : 'Sources (continued)';
    if (i > 0 || !data) return { text, blocks };
    return {
      text,
      blocks: [...data.blocks, ...blocks],
      fallback: { text, blocks: [...data.asText, ...blocks] },
    };
  });
}

/**
 * [Research more]: continues this research for a new version of the report;
 * [Repeat…]: schedules it; the menu's [Delete report…] asks to confirm first.
 */
export function moreActions(sessionId: string): KnownBlock {
  const plain = (text: string) => ({ type: 'plain_text' as const, text });
  return {
    type: 'actions',
    block_id: 'report_actions',
    elements: [
      button('Research more', ACTION.researchMore, sessionId),
      button('Repeat…', ACTION.repeat, sessionId),
      button('Download as PDF', ACTION.exportPdf, sessionId),
      button('Download as Word', ACTION.exportDocx, sessionId),
      {
        type: 'overflow',
        action_id: ACTION.deleteReport,
        options: [{ text: plain('Delete report…'), value: sessionId }],
        confirm: {
          title: plain('Delete this report?'),
          text: plain(
            'Its canvas, file and messages go from Slack, and its sources and answers from the app, for everyone. This cannot be undone.',
          ),
          confirm: plain('Delete'),
          deny: plain('Keep it'),
          style: 'danger',
        },
      },
    ],
  };
}

/** Good / not good, for the report; the value carries the verdict and the session. */
export function feedbackBlock(sessionId: string): KnownBlock {
  const button = (text: string, verdict: 'good' | 'bad', label: string) => ({
    text: { type: 'plain_text' as const, text },
    value: `${verdict}:${sessionId}`,
    accessibility_label: label,
  });
  return {
    type: 'context_actions',
    elements: [
      {
        type: 'feedback_buttons',
        action_id: ACTION.feedback,
        positive_button: button('Good report', 'good', 'This report was useful'),
        negative_button: button('Not good', 'bad', 'This report was not useful'),
      },
    ],
  };
}

/** A reader's click on the feedback buttons, or null for a value we did not build. */
export function parseFeedback(value: string): { value: 'good' | 'bad'; sessionId: string } | null {
  const match = /^(good|bad):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.exec(value);
  return match ? { value: match[1] as 'good' | 'bad', sessionId: match[2]! } : null;
}
