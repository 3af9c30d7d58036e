import type { Config } from '../../config/config-shape.js';
import type { FinalReport } from '../../ports/report.js';
import { reportDocument } from '../../ports/report-markdown.js';
import type { OutboxIntent } from '../../sessions/records/outbox-intent.js';
import { canvasDocument } from '../render/canvas-markdown.js';
import { reportMessages, sourcesMessages } from '../render/report-messages.js';
import { summaryMessage } from '../render/summary-message.js';
import type { SessionThread } from './session-thread.js';

/** How a report goes to Slack (REPORT_FORMAT). */
export type ReportFormat = Config['slack']['reportFormat'];

/**
 * The writes that deliver a report. With canvases (`auto`, `canvas`) the
 * whole report goes to a canvas and the thread gets its summary; the split
 * messages are recorded too, after the canvas, and are sent only if no canvas
 * could be made or shared (the summary then stays unsent), so a refusal loses
 * nothing and changes no order. `report.md` is attached either way.
 */
export function reportIntents(
  thread: SessionThread,
  question: string,
  report: FinalReport,
  footer: string,
  format: ReportFormat,
): OutboxIntent[] {
  const sessionId = thread.place.sessionId;
  const withCanvas = format !== 'messages';
  const split = withCanvas ? 'no-canvas' : undefined;
  const intents: OutboxIntent[] = [];
  if (withCanvas) {
    const canvas = canvasDocument(question, report, footer);
    intents.push(thread.canvas(format === 'canvas' ? { ...canvas, required: true } : canvas));
  }
  intents.push(
    ...reportMessages(report).map((m, part) => thread.post({ kind: 'report', part }, m, true, split)),
    ...sourcesMessages(report, footer, sessionId).map((m, part) =>
      thread.post({ kind: 'sources', part }, m, true, split),
    ),
  );
  if (withCanvas)
    intents.push(thread.post({ kind: 'summary' }, summaryMessage(report, footer, sessionId), true, 'canvas'));
  intents.push(thread.upload('report.md', 'Research report', reportDocument(question, report, footer)));
  return intents;
}
