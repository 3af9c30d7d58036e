import type { App, BlockAction, ButtonAction, PlainTextInputAction } from '@slack/bolt';
import type { Logger } from '../ports/logger.js';
import type { ReportLibrary } from '../sessions/report-library.js';
import type { SessionStore } from '../store/session-store.js';
import type { ChannelMembers } from './channel-members.js';
import { HOME, homeView } from './render/home-view.js';
import type { SlackApi } from './slack-api.js';

const PAGE_SIZE = 10;
const QUERY_MAX = 300;

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
    },
  ) {}

  async publish(userId: string, teamId: string, query = '', page = 0): Promise<void> {
    const { api, library, members, sessions } = this.deps;
    const words = query.slice(0, QUERY_MAX);
    const running = (await sessions.activeSessions(userId)).filter((s) => s.teamId === teamId);
    const found = await library.page(words, { userId, teamId }, (c, u) => members.has(c, u), page, PAGE_SIZE);
    const links = new Map<string, { thread?: string; canvas?: string }>();
    for (const r of found.reports) {
      const thread =
        r.channelId && r.threadTs
          ? await api.workspaceUrl({ channel: r.channelId, ts: r.threadTs })
          : undefined;
      const canvas = r.canvasId ? await api.workspaceUrl({ canvas: r.canvasId }) : undefined;
      links.set(r.id, { ...(thread ? { thread } : {}), ...(canvas ? { canvas } : {}) });
    }
    const view = homeView({ running, reports: found.reports, query: words, page, more: found.more, links });
    await api.call('views.publish', () => api.client.views.publish({ user_id: userId, view }));
  }
}

/** Opening the Home tab, searching it and paging it: each republishes the person's view. */
export function homeEvents(app: App, home: SlackHome, log: Logger): void {
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
      const { q, p } = JSON.parse((a as ButtonAction).value ?? '{}') as { q?: string; p?: number };
      return { q: q ?? '', p: Math.max(0, Number(p) || 0) };
    }),
  );
}
