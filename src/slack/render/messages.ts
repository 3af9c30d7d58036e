import type { KnownBlock } from '@slack/web-api';
import { describeActivity, formatDuration, type Progress } from '../../ports/progress.js';
import { modelMrkdwn, safeSentence, safeText } from './mrkdwn.js';
import { SLACK_LIMITS, splitMrkdwn } from './split-mrkdwn.js';

/** A message as chat.postMessage / chat.update take it: blocks, and the notification text Slack requires. */
export interface SlackMessage {
  text: string;
  blocks: KnownBlock[];
  /**
   * The same message without blocks a workspace or client may refuse (charts,
   * data tables), their content as text: sent instead when Slack answers invalid_blocks.
   */
  fallback?: { text: string; blocks: KnownBlock[] };
}

export const ACTION = {
  cancel: 'research_cancel',
  startNow: 'research_start_now',
  editPlan: 'research_edit_plan',
  researchMore: 'research_more',
  /** [Repeat…]: research the question again on a cadence (a schedule). */
  repeat: 'research_repeat',
  researchThis: 'research_this',
  reuseRead: 'reuse_read',
  reuseAsk: 'reuse_ask',
  reuseResearch: 'reuse_research',
  feedback: 'research_feedback',
  /** The report's menu: [Delete report…], confirmed in Slack first. */
  deleteReport: 'research_delete',
  /** [Download as PDF], [Download as Word]: the report as a file in its thread. */
  exportPdf: 'research_export_pdf',
  exportDocx: 'research_export_docx',
} as const;

/** The end of a session as the thread shows it. */
export type Ending =
  /** `unchanged`: a scheduled run that found nothing material changed (no report posted). */
  | { kind: 'done'; sources: number; durationMs: number; linked?: boolean; unchanged?: boolean }
  | { kind: 'failed'; reason: string }
  | { kind: 'cancelled'; by?: string }
  | { kind: 'expired' };

/**
 * Stands for a link to the report (its canvas, else its first message) until
 * the outbox resolves it at sending time; without either, the label stays as
 * text. Text from people or models never contains a raw `<` (it is escaped),
 * so only our own renderer writes this.
 */
export function reportLink(label: string, sessionId?: string): string {
  return sessionId ? `<report-link:${sessionId}|${label}>` : `<report-link|${label}>`;
}

export const section = (text: string): KnownBlock => ({ type: 'section', text: { type: 'mrkdwn', text } });
export const context = (text: string): KnownBlock => ({
  type: 'context',
  elements: [{ type: 'mrkdwn', text }],
});
export const button = (text: string, actionId: string, value: string, style?: 'primary' | 'danger') => ({
  type: 'button' as const,
  text: { type: 'plain_text' as const, text, emoji: true },
  action_id: actionId,
  value,
  ...(style ? { style } : {}),
});

/** Text that may be long and untrusted, as sections that each fit, in one message. */
export function sections(mrkdwn: string): KnownBlock[] {
  return splitMrkdwn(mrkdwn, {
    section: SLACK_LIMITS.section,
    message: Number.POSITIVE_INFINITY,
    blocks: Number.POSITIVE_INFINITY,
  })
    .flat()
    .map(section);
}

function quote(text: string): string {
  return safeText(text)
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

function fallback(text: string): string {
  return text.length > SLACK_LIMITS.text ? `${text.slice(0, SLACK_LIMITS.text - 1)}…` : text;
}

function endingLine(ending: Ending | undefined): string {
  if (!ending) return '_Researching… follow along in the thread._';
  switch (ending.kind) {
    case 'done': {
      const link = ending.linked ? ` · ${reportLink('read the report')}` : '';
      const what = ending.unchanged ? 'Nothing material changed' : 'Report ready';
      return `:white_check_mark: *${what}* · ${count(ending.sources, 'source')} · ${formatDuration(ending.durationMs)}${link}`;
    }
    case 'failed':
      return `:x: *Failed*: ${safeText(ending.reason)}`;
    case 'cancelled':
      return `:no_entry: *Cancelled*${ending.by ? ` by <@${ending.by}>` : ''}`;
    case 'expired':
      return ':hourglass: *Expired*: the clarifying questions were not answered in time.';
  }
}

/** The channel message that opens the thread for `/research`; its last line is edited when the session ends. */
/** The root of a `/research` thread, or of a scheduled run's (`scheduled`: the person is its schedule's owner). */
export function rootMessage(
  requester: string,
  question: string,
  ending?: Ending,
  scheduled = false,
): SlackMessage {
  const what = scheduled
    ? `Scheduled deep research for <@${requester}>`
    : `Deep research requested by <@${requester}>`;
  const head = scheduled
    ? `:repeat: *Scheduled deep research* for <@${requester}>`
    : `:mag: *Deep research* requested by <@${requester}>`;
  return {
    text: fallback(`${what}: ${safeText(question)}`),
    blocks: [...sections(`${head}\n${quote(question)}`), context(endingLine(ending))],
  };
}

export type ClarifyState =
  | { kind: 'open' }
  | { kind: 'answered'; by: string }
  | { kind: 'skipped'; by: string }
  | { kind: 'closed'; ending: Ending };

export function clarifyMessage(questions: string, sessionId: string, state: ClarifyState): SlackMessage {
  const body = `Before I start, a few questions to focus the research:\n\n${modelMrkdwn(questions)}`;
  const blocks = sections(body);
  if (state.kind === 'open') {
    blocks.push(context('Reply in this thread to answer, or start right away.'));
    blocks.push({
      type: 'actions',
      block_id: 'clarify_actions',
      elements: [
        button('Start without answering', ACTION.startNow, sessionId, 'primary'),
        button('Cancel', ACTION.cancel, sessionId, 'danger'),
      ],
    });
  } else if (state.kind === 'answered')
    blocks.push(context(`:speech_balloon: Answered by <@${state.by}>; researching now.`));
  else if (state.kind === 'skipped') {
    blocks.push(context(`:fast_forward: <@${state.by}> started without answering; researching now.`));
  } else blocks.push(context(endingLine(state.ending)));
  return { text: 'Before I start, a few questions to focus the research.', blocks };
}

/** [Cancel] under a running research's message. */
export function cancelActions(sessionId: string): KnownBlock {
  return {
    type: 'actions',
    block_id: 'progress_actions',
    elements: [button('Cancel', ACTION.cancel, sessionId, 'danger')],
  };
}

const ICONS = { running: ':mag:', done: ':white_check_mark:', failed: ':warning:' } as const;
/** The live message shows every running agent and the most recent finished ones. */
const FINISHED_SHOWN = 6;

/** The live progress message; with `ending` it becomes the final summary and loses its button. */
export function progressMessage(
  progress: Progress,
  elapsedMs: number,
  sessionId: string,
  ending?: Ending,
): SlackMessage {
  const phase =
    ending?.kind === 'done'
      ? ':white_check_mark: *Research complete*'
      : ending?.kind === 'cancelled'
        ? ':no_entry: *Research cancelled*'
        : ending
          ? ':x: *Research stopped*'
          : progress.phase === 'report'
            ? ':memo: *Writing the report*'
            : progress.phase === 'plan'
              ? ':clipboard: *Planning*'
              : ':hourglass_flowing_sand: *Researching*';
  const cycle = progress.maxCycles ? ` · cycle ${progress.cycle} of ${progress.maxCycles}` : '';
  const agents = progress.agents.length ? ` · ${progress.agents.length} agents` : '';
  const header = `${phase}${ending ? agents : cycle} · ${count(progress.sources, 'source')} · ${formatDuration(elapsedMs)}`;

  const running = progress.agents.filter((a) => a.status === 'running');
  const finished = progress.agents.filter((a) => a.status !== 'running');
  const shownFinished = finished.slice(-FINISHED_SHOWN);
  const lines = [...shownFinished, ...(ending ? [] : running)].map((a) => {
    const task = `_${safeText(oneLine(a.task, 120))}_`;
    if (a.status === 'running')
      return `• ${ICONS.running} ${task}: ${safeText(oneLine(describeActivity(a.activity), 160))}`;
    if (a.status === 'done') return `• ${ICONS.done} ${task}: done, ${count(a.sources ?? 0, 'source')}`;
    return `• ${ICONS.failed} ${task}: failed (${safeText(oneLine(a.reason ?? 'unknown error', 160))})`;
  });
  const hidden = finished.length - shownFinished.length;
  if (hidden > 0) lines.unshift(`_…and ${hidden} earlier agents_`);
  if (progress.checking && !ending) lines.push(`• :mag: ${safeText(oneLine(progress.checking, 200))}`);

  const blocks = sections([header, ...lines].join('\n'));
  if (!ending) blocks.push(cancelActions(sessionId));
  return { text: header.replace(/:[a-z_]+: /, ''), blocks };
}

/** A plain sentence in the thread: failures, queue position, notices. */
/** What the thread is told when research ends without its whole report: cancelled (by whom) or failed (why). */
export function endingNotice(
  ending: Extract<Ending, { kind: 'cancelled' | 'failed' }>,
  sessionId: string,
  found = false,
): SlackMessage {
  if (ending.kind === 'failed')
    return noticeMessage(`:x: The research failed: ${safeSentence(ending.reason)} (session ${sessionId})`);
  const who = ending.by ? ` by <@${ending.by}>` : '';
  const more = found ? ' Here is what was found so far.' : '';
  return noticeMessage(`:no_entry: Research cancelled${who}.${more} (session ${sessionId})`);
}

export function noticeMessage(text: string): SlackMessage {
  return { text: fallback(text), blocks: [section(text)] };
}

export function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Text on one line, cut to `max` characters with an ellipsis. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
