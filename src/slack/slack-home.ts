import type { App, BlockAction, ButtonAction, PlainTextInputAction } from '@slack/bolt';
import type { Logger } from '../ports/logger.js';
import type { ChannelPolicies } from '../sessions/policies/channel-policies.js';
import type { AuditStore } from '../sessions/records/audit-store.js';
import type { SessionStore } from '../sessions/records/session-store.js';
import type { ReportLibrary } from '../sessions/report-library.js';
import type { ScheduleService } from '../sessions/schedules/schedule-service.js';
import type { SlackApi } from './api/slack-api.js';
import type { ChannelMembers } from './channel-members.js';
import { keyedQueue } from './keyed-queue.js';
import type { AdminContent } from './render/admin-home.js';
import { HOME, homeView, newResearchModal } from './render/home-view.js';
import { noticeMessage } from './render/messages.js';
import { reportLinks } from './report-links.js';
import type { SlackFeature } from './slack-feature.js';

const PAGE_SIZE = 10;
const QUERY_MAX = 300;
/** One person's Home is republished at most this often when their sessions change (views.publish limits). */
const REFRESH_MS = 5_000;
/** The audit trail's newest actions an admin's Home lists. */
const AUDIT_ROWS = 15;
/** People whose search or page this process remembers (the oldest is forgotten first). */
const SHOWN_MAX = 10_000;

/** What one person's Home shows: a search's words (empty for the listing) and a page. */
interface Shown {
  query: string;
  page: number;
}

/**
 * The Home tab: published for one person when they open it, search it or
 * turn its pages (views.publish), from the same library and visibility rules
 * as `/research find`.
 */
export class SlackHome {
  constructor(
    private readonly deps: {
      sessions: SessionStore;
      library: ReportLibrary;
      members: ChannelMembers;
      api: SlackApi;
      log: Logger;
      /** MAX_QUESTION_CHARS, for the New research form. */
      maxQuestionChars: number;
      /** The person's schedules, listed and paused or resumed here. */
      schedules: ScheduleService;
      /** The audit trail, whose newest actions a workspace admin's Home lists. */
      audit?: Pick<AuditStore, 'list'>;
      /** Channel policies, which a workspace admin's Home lists with [Edit policy]. */
      policies?: Pick<ChannelPolicies, 'list'>;
    },
  ) {}

  openForm(triggerId: string): Promise<void> {
    return this.deps.api.openView(triggerId, newResearchModal(this.deps.maxQuestionChars));
  }

  /** A question from the form: research in the chosen channel, else in a DM with the app; a refusal is said there. */
  async submitted(
    who: { userId: string; teamId: string },
    question: string,
    channel: string | undefined,
    start: Start,
  ): Promise<void> {
    const channelId = channel ?? (await this.deps.api.openDm(who.userId));
    const refusal = await start({ teamId: who.teamId, channelId, userId: who.userId }, question);
    if (refusal) await this.deps.api.ephemeral(channelId, who.userId, noticeMessage(refusal));
  }

  /** [Pause] or [Resume] on one of the person's schedules in Home; the view shows the change. */
  async changeSchedule(who: { userId: string; teamId: string }, id: string, change: 'pause' | 'resume') {
    const actor = { id: who.userId, mayManage: () => this.deps.api.isAdmin(who.userId), lists: 'Home' };
    const changed = await this.deps.schedules.change(id, actor, change);
    if (!changed.done) this.deps.log.warn({ user: who.userId }, changed.sentence);
    await this.republish(who.userId, who.teamId);
  }

  private readonly refreshing = new Map<string, NodeJS.Timeout>();

  /** One of the person's sessions changed state: their Home shows it (soon, once for a burst of changes). */
  refresh(userId: string, teamId: string | null): void {
    if (!teamId || this.refreshing.has(userId)) return;
    const timer = setTimeout(() => {
      this.refreshing.delete(userId);
      this.republish(userId, teamId).catch((err) =>
        this.deps.log.warn({ err, user: userId }, 'could not refresh the Home tab'),
      );
    }, REFRESH_MS);
    timer.unref();
    this.refreshing.set(userId, timer);
  }

  /** Best effort: a Home is published without the admins' part when Slack or the store cannot say. */
  private async adminContent(userId: string, teamId: string): Promise<AdminContent | undefined> {
    const { audit, policies, api, log } = this.deps;
    if (!(audit || policies) || !(await api.isAdmin(userId).catch(() => false))) return undefined;
    const read = <T>(what: string, from: Promise<T> | undefined) =>
      from?.catch((err) => {
        log.warn({ err, user: userId }, `could not read ${what} for Home`);
        return undefined;
      });
    return {
      audit: await read('the audit trail', audit?.list({ teamId, limit: AUDIT_ROWS })),
      policies: await read('channel policies', policies?.list(teamId)),
    };
  }

  /** The search or page each person last asked for, which a refresh keeps showing. */
  private readonly shown = new Map<string, Shown>();
  /** One person's publications go out in the order they were asked for, so the latest view is the one left. */
  private readonly inTurn = keyedQueue();

  /** The person's Home as they last left it (their search and page), with what changed since. */
  republish(userId: string, teamId: string): Promise<void> {
    const { query, page } = this.shown.get(`${teamId}:${userId}`) ?? { query: '', page: 0 };
    return this.publish(userId, teamId, query, page);
  }

  /** Publishes the person's Home: the listing, or a search's words and a page, which it remembers. */
  publish(userId: string, teamId: string, query = '', page = 0): Promise<void> {
    const key = `${teamId}:${userId}`;
    this.shown.delete(key);
    this.shown.set(key, { query, page });
    if (this.shown.size > SHOWN_MAX) this.shown.delete(this.shown.keys().next().value!);
    return this.inTurn(key, () => this.render(userId, teamId, query, page));
  }

  private async render(userId: string, teamId: string, query: string, page: number): Promise<void> {
    const { api, library, members, sessions } = this.deps;
    const words = query.slice(0, QUERY_MAX);
    const running = (await sessions.activeSessions(userId)).filter((s) => s.teamId === teamId);
    const schedules = await this.deps.schedules.list(userId);
    const found = await library.page(words, { userId, teamId }, (c, u) => members.has(c, u), page, PAGE_SIZE);
    const admin = await this.adminContent(userId, teamId);
    const links = new Map(
      await Promise.all(found.reports.map(async (r) => [r.id, await reportLinks(api, r)] as const)),
    );
    const view = homeView({
      running,
      schedules,
      reports: found.reports,
      query: words,
      page,
      more: found.more,
      links,
      now: new Date(),
      ...(admin ? { admin } : {}),
    });
    await api.call('views.publish', () => api.client.views.publish({ user_id: userId, view }));
  }
}

/** Starts research from a place and a question; a refusal to say, if refused. */
type Start = (
  place: { teamId: string; channelId: string; userId: string },
  question: string,
) => Promise<string | undefined>;

/**
 * Opening the Home tab, searching it and paging it (each republishes the
 * person's view), and New research: a modal whose question starts research
 * in the chosen channel, or in a direct message with the app.
 */
export function homeFeature(home: SlackHome, start: Start): SlackFeature {
  return { name: 'home', register: (app, { log }) => homeEvents(app, home, log, start) };
}

function homeEvents(app: App, home: SlackHome, log: Logger, start: Start): void {
  app.action<BlockAction>(HOME.newResearch, async ({ ack, body }) => {
    await ack();
    await home
      .openForm(body.trigger_id)
      .catch((err) => log.warn({ err, user: body.user.id }, 'could not open the New research form'));
  });
  app.view(HOME.form, async ({ ack, body, view }) => {
    const question = (view.state.values.question?.question?.value ?? '').trim();
    if (!question) {
      await ack({ response_action: 'errors', errors: { question: 'Ask a question.' } });
      return;
    }
    await ack();
    const channel = view.state.values.channel?.channel?.selected_conversation ?? undefined;
    await home
      .submitted({ userId: body.user.id, teamId: body.team?.id ?? '' }, question, channel, start)
      .catch((err) => log.error({ err, user: body.user.id }, 'New research from Home failed'));
  });
  for (const [action, change] of [
    [HOME.pauseSchedule, 'pause'],
    [HOME.resumeSchedule, 'resume'],
  ] as const)
    app.action<BlockAction>(action, async ({ ack, body, action: clicked }) => {
      await ack();
      const who = { userId: body.user.id, teamId: body.user.team_id ?? body.team?.id ?? '' };
      await home
        .changeSchedule(who, (clicked as ButtonAction).value ?? '', change)
        .catch((err) => log.warn({ err, user: body.user.id }, `could not ${change} a schedule from Home`));
    });
  app.event('app_home_opened', async ({ event, body }) => {
    if (event.tab !== 'home') return;
    await home
      .publish(event.user, body.team_id)
      .catch((err) => log.warn({ err, user: event.user }, 'could not publish the Home tab'));
  });
  const republish =
    (read: (action: BlockAction['actions'][number]) => { q: string; p: number }) =>
    async ({
      ack,
      body,
      action,
    }: {
      ack: () => Promise<void>;
      body: BlockAction;
      action: BlockAction['actions'][number];
    }) => {
      await ack();
      const { q, p } = read(action);
      await home
        .publish(body.user.id, body.user.team_id ?? body.team?.id ?? '', q, p)
        .catch((err) => log.warn({ err, user: body.user.id }, 'could not publish the Home tab'));
    };
  app.action<BlockAction>(
    HOME.search,
    republish((a) => ({ q: (a as PlainTextInputAction).value ?? '', p: 0 })),
  );
  app.action<BlockAction>(
    HOME.page,
    republish((a) => {
      // The value is ours, but a click carries whatever Slack sends: anything unreadable is the first page.
      let value: { q?: unknown; p?: unknown } = {};
      try {
        value = JSON.parse((a as ButtonAction).value ?? '{}');
      } catch {}
      return { q: typeof value.q === 'string' ? value.q : '', p: Math.max(0, Number(value.p) || 0) };
    }),
  );
}
