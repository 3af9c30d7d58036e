import type { Progress } from '../../ports/progress.js';
import type { FinalReport } from '../../ports/report.js';
import { usageFooter } from '../../ports/report-markdown.js';
import type { OutboxIntent } from '../../sessions/records/outbox-intent.js';
import type { SessionRow } from '../../sessions/records/session-store.js';
import type { Settled } from '../../sessions/session-surface.js';
import {
  clarifyMessage,
  type Ending,
  endingNotice,
  progressMessage,
  rootMessage,
} from '../render/messages.js';
import { type PlanContext, planMessage, planReviewMessage } from '../render/plan-message.js';
import { closingLine, finalChunks } from '../render/progress-chunks.js';
import { unchangedMessage } from '../render/unchanged-message.js';
import type { ReportFormat } from './report-intents.js';
import { reportIntents } from './report-intents.js';
import type { SessionThread } from './session-thread.js';

/** What the thread showed of a session while it ran, for the writes that show how it came to rest. */
export interface SettledThread {
  thread: SessionThread;
  row: SessionRow;
  progress: Progress;
  elapsedMs: number;
  /** Progress is streamed (chat.startStream): its stream is stopped rather than edited. */
  streams: boolean;
  plan: string | null;
  given?: PlanContext;
  reportFormat: ReportFormat;
  estimatePlan: () => Promise<string>;
  /** Who cancelled it, read when it was. */
  cancelledBy: () => Promise<string | undefined>;
}

/**
 * The writes that show how a session came to rest in its thread: the
 * questions or the plan under review with their buttons, or the report (as
 * its format says) with the final progress, the plan without buttons, the
 * root's ending and the agent status; a cancel or a failure is said first.
 */
export async function settledIntents(settled: Settled, s: SettledThread): Promise<OutboxIntent[]> {
  const t = s.thread;
  const id = s.row.id;
  if (settled.kind === 'needs_clarification') {
    return [
      t.post({ kind: 'clarify' }, clarifyMessage(settled.questions, id, { kind: 'open' })),
      t.agentStatus('active', 'clarify'),
    ];
  }
  if (settled.kind === 'needs_plan_review') {
    const estimate = await s.estimatePlan().catch(() => 'n/a');
    const review = { sessionId: id, estimate, seconds: settled.seconds };
    return [
      t.post({ kind: 'plan' }, planReviewMessage(settled.plan, review, s.given)),
      t.agentStatus('active', 'review'),
    ];
  }
  let ending: Ending;
  let report: FinalReport | null = null;
  const intents: OutboxIntent[] = [];
  if (settled.kind === 'done') {
    report = settled.report;
    const unchanged = report.changes?.material === false;
    const { length: sources } = report.sources;
    ending = { kind: 'done', sources, durationMs: report.durationMs, linked: !unchanged, unchanged };
  } else if (settled.kind === 'cancelled') {
    const by = await s.cancelledBy();
    ending = { kind: 'cancelled', by };
    if (settled.found?.markdown.trim()) report = settled.found;
    intents.push(t.notice('cancelled', endingNotice(ending, id, Boolean(report)), true));
  } else {
    ending = { kind: 'failed', reason: settled.message };
    intents.push(t.notice('failed', endingNotice(ending, id), true));
  }
  if (report && settled.kind !== 'failed') {
    const version = settled.view.reportVersion;
    const footer = usageFooter(report, settled.view.usage, id, version);
    const title = version > 1 ? `${s.row.question} (version ${version})` : s.row.question;
    const changes = settled.kind === 'done' ? report.changes : undefined;
    if (changes?.material === false)
      intents.push(t.post({ kind: 'summary' }, unchangedMessage(report, changes, footer, id), true));
    else intents.push(...reportIntents(t, title, report, footer, s.reportFormat));
  }
  // Final states come last: they say "ready" only once everything before them is in the thread. The
  // progress edit is recorded whether or not its message exists yet (a resumed session may have its post
  // still pending); the dispatcher skips it if the message was never posted.
  const final = progressMessage(s.progress, s.elapsedMs, id, ending);
  const stop = s.streams ? finalChunks(s.progress, closingLine(ending, s.elapsedMs, report)) : undefined;
  intents.push(t.edit({ kind: 'progress' }, final, stop));
  if (s.streams && s.plan) intents.push(t.edit({ kind: 'plan' }, planMessage(s.plan, undefined, s.given)));
  intents.push(
    ...t.finishOpener(
      rootMessage(s.row.requester, s.row.question, ending, Boolean(s.row.scheduleId)),
      ending.kind,
    ),
  );
  intents.push(t.agentStatus('closed', 'end'));
  return intents;
}
