import type { HomeView, KnownBlock } from '@slack/types';
import { formatDuration } from '../../ports/progress.js';
import type { ReportMatch } from '../../sessions/records/report-search.js';
import type { ScheduleRow } from '../../sessions/records/schedule-row.js';
import type { SessionRow } from '../../sessions/records/session-store.js';
import type { ReportLinks } from '../report-links.js';
import { type AdminContent, adminBlocks } from './admin-home.js';
import { ACTION, button, context, count, oneLine } from './messages.js';
import { safeText } from './mrkdwn.js';
import { scheduleStanding } from './schedule-text.js';

export const HOME = {
  search: 'home_search',
  page: 'home_page',
  newResearch: 'home_new_research',
  /** The New research modal's callback_id. */
  form: 'home_research_form',
  pauseSchedule: 'home_schedule_pause',
  resumeSchedule: 'home_schedule_resume',
} as const;

/** The New research modal: the question, and where the thread goes (a channel, else a DM with the app). */
export function newResearchModal(maxQuestionChars: number) {
  return {
    type: 'modal' as const,
    callback_id: HOME.form,
    title: { type: 'plain_text' as const, text: 'New research' },
    submit: { type: 'plain_text' as const, text: 'Research' },
    close: { type: 'plain_text' as const, text: 'Cancel' },
    blocks: [
      {
        type: 'input' as const,
        block_id: 'question',
        label: { type: 'plain_text' as const, text: 'Question' },
        element: {
          type: 'plain_text_input' as const,
          action_id: 'question',
          multiline: true,
          max_length: maxQuestionChars,
        },
      },
      {
        type: 'input' as const,
        block_id: 'channel',
        optional: true,
        label: { type: 'plain_text' as const, text: 'Post it in (empty: a direct message with me)' },
        element: { type: 'conversations_select' as const, action_id: 'channel' },
      },
    ],
  };
}

export interface HomeContent {
  running: SessionRow[];
  /** The person's schedules (research that repeats), oldest first. */
  schedules: ScheduleRow[];
  reports: ReportMatch[];
  query: string;
  page: number;
  more: boolean;
  /** Where each report can be read, by session id. */
  links: Map<string, ReportLinks>;
  /** When the view is published: a running session's time so far. */
  now: Date;
  /** For a workspace admin: the newest actions of the audit trail here, and the channels' policies. */
  admin?: AdminContent;
}

/** Where a running session stands, as its requester reads it. */
const STANDING: Partial<Record<SessionRow['status'], string>> = {
  clarifying: 'waiting for your answers in the thread',
  reviewing: 'plan waiting for [Start now]',
  queued: 'queued',
  running: 'researching',
  reporting: 'writing the report',
};

/** Slack allows 100 blocks in a Home view. */
const MAX_RUNNING = 10;

/**
 * A person's Home tab: their research that is running or waiting for them
 * (with Cancel), a search box over the team's reports, and the reports they
 * may see, a page at a time. Page text is shown as text: it mentions no one.
 */
export function homeView(content: HomeContent): HomeView {
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: 'Deep research' } },
    {
      type: 'actions',
      block_id: 'home_actions',
      elements: [button('New research', HOME.newResearch, 'new', 'primary')],
    },
    context('Or ask with `/research <question>`, by mentioning me in a channel, or in a direct message.'),
    { type: 'divider' },
    { type: 'section', text: { type: 'mrkdwn', text: '*Your research in progress*' } },
  ];
  if (content.running.length === 0) blocks.push(context('Nothing running.'));
  for (const s of content.running.slice(0, MAX_RUNNING)) {
    const since = s.createdAt.toISOString().slice(0, 16).replace('T', ' ');
    const elapsed = formatDuration(Math.max(0, content.now.getTime() - s.createdAt.getTime()));
    const standing = STANDING[s.status] ?? s.status;
    blocks.push({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `${safeText(oneLine(s.question, 150))}\n_${standing} · ${elapsed} since ${since} UTC_`,
      },
      accessory: button('Cancel', ACTION.cancel, s.id, 'danger'),
    });
  }
  blocks.push(...scheduleBlocks(content.schedules));
  blocks.push(
    { type: 'divider' },
    {
      type: 'input',
      block_id: 'home_search',
      dispatch_action: true,
      label: { type: 'plain_text', text: 'Search reports' },
      element: {
        type: 'plain_text_input',
        action_id: HOME.search,
        placeholder: { type: 'plain_text', text: 'Words from a question or a report, then Enter' },
        ...(content.query ? { initial_value: content.query } : {}),
        dispatch_action_config: { trigger_actions_on: ['on_enter_pressed'] },
      },
    },
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: content.query
          ? `*Reports matching "${safeText(oneLine(content.query, 80))}"*`
          : '*Recent reports*',
      },
    },
  );
  if (content.reports.length === 0)
    blocks.push(context(content.query ? 'No report you can see matches.' : 'No report you can see yet.'));
  for (const r of content.reports) {
    const link = content.links.get(r.id) ?? {};
    const title = safeText(oneLine(r.question, 150));
    const where = r.channelId?.startsWith('D') ? 'direct message' : `<#${r.channelId}>`;
    const canvas = link.canvas ? ` · <${link.canvas}|canvas>` : '';
    blocks.push({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `${link.thread ? `<${link.thread}|${title}>` : title}\n_${r.createdAt.toISOString().slice(0, 10)} · ${where} · ${count(r.sources, 'source')}_${canvas}`,
      },
    });
  }
  const paging = [
    ...(content.page > 0
      ? [button('Previous', HOME.page, JSON.stringify({ q: content.query, p: content.page - 1 }))]
      : []),
    ...(content.more
      ? [button('Next', HOME.page, JSON.stringify({ q: content.query, p: content.page + 1 }))]
      : []),
  ];
  if (paging.length) blocks.push({ type: 'actions', block_id: 'home_paging', elements: paging });
  if (content.admin) blocks.push(...adminBlocks(content.admin));
  return { type: 'home', blocks };
}

/** The person's schedules: cadence, channel, next run, runs and cost, the last result, with Pause or Resume. */
function scheduleBlocks(schedules: ScheduleRow[]): KnownBlock[] {
  if (schedules.length === 0) return [];
  const blocks: KnownBlock[] = [
    { type: 'divider' },
    { type: 'section', text: { type: 'mrkdwn', text: '*Your schedules*' } },
  ];
  for (const s of schedules.slice(0, MAX_SCHEDULES)) {
    const where = !s.channelId
      ? 'terminal'
      : s.channelId.startsWith('D')
        ? 'direct message'
        : `<#${s.channelId}>`;
    blocks.push({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `${safeText(oneLine(s.question, 150))}\n_${s.cadence} (${s.timeZone}) · ${where} · ${scheduleStanding(s)}_ · \`${s.id.slice(0, 8)}\``,
      },
      accessory:
        s.status === 'paused'
          ? button('Resume', HOME.resumeSchedule, s.id)
          : button('Pause', HOME.pauseSchedule, s.id),
    });
  }
  return blocks;
}

/** Schedules shown in Home (Slack allows 100 blocks in a view). */
const MAX_SCHEDULES = 10;
