import { App } from '@slack/bolt';
import type { FrontDoor } from '../http/front-door.js';
import type { Logger } from '../ports/logger.js';
import type { SessionStore } from '../sessions/records/session-store.js';
import { within } from '../within.js';
import type { SlackApi } from './api/slack-api.js';
import { webClientOptions } from './api/slack-clients.js';
import { slackLogger } from './api/slack-logger.js';
import { type OpsSources, opsRoutes } from './ops-routes.js';
import { USAGE } from './render/status-list.js';
import type { SlackFeature } from './slack-feature.js';
import { slackReceiver } from './slack-receiver.js';
import type { SlackSessions } from './slack-sessions.js';
import { foreignWorkspace } from './workspace-check.js';

export interface SlackAppOptions extends OpsSources {
  botToken: string;
  signingSecret?: string;
  /** Set: Socket Mode (no public URL). Unset: HTTP on /slack/events. */
  appToken?: string;
  apiUrl?: string;
  logger: Logger;
  /** Who the token is (checked at start), so Bolt does not call auth.test itself and cache a failure. */
  identity: { botUserId: string; botId: string; teamId?: string };
}

export interface SlackAppParts {
  /** Questions from the command, mentions and messages, and replies in research threads. */
  service: SlackSessions;
  /** Where an event is claimed once across processes (Slack retries deliveries). */
  store: Pick<SessionStore, 'claimEvent'>;
  /** The listeners' Web API client (a private "something went wrong"). */
  api: SlackApi;
  /** Every other feature: its `/research` sub-commands and its own listeners. */
  features: SlackFeature[];
}

export interface SlackApp {
  /** Starts taking requests through the service's HTTP port (/slack/events in HTTP mode, /healthz in both). */
  start(door: FrontDoor): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The Bolt app. Every listener acknowledges first and only records or posts
 * small things afterwards; research runs in the worker. Signatures are
 * verified by Bolt's HTTP receiver (a bad one gets 401 and runs nothing);
 * bodies it would choke on are refused before it sees them (http-edge.ts).
 */
export function createSlackApp(
  options: SlackAppOptions,
  { service, store, api, features }: SlackAppParts,
): SlackApp {
  const log = options.logger;
  const boltLog = slackLogger(log, 'bolt');
  const slack = slackReceiver(
    { ...options, installedTeam: options.identity.teamId },
    opsRoutes(options, log),
    log,
    boltLog,
  );
  const app = new App({
    token: options.botToken,
    receiver: slack.receiver,
    clientOptions: webClientOptions(options.apiUrl),
    logger: boltLog,
    botId: options.identity.botId,
    botUserId: options.identity.botUserId,
    // Bolt's conversation store keeps a timer and rejects a lookup for every event; we never use it,
    // and it was a quarter of the CPU spent acknowledging a burst of commands.
    convoStore: false,
  });
  // Socket Mode's requests arrive here unchecked (HTTP ones were refused at the edge already).
  app.use(async ({ body, ack, next }) => {
    const foreign = foreignWorkspace(body, options.identity.teamId);
    if (!foreign) return next();
    log.warn({}, foreign);
    await ack?.();
  });
  const once = (key: string) => store.claimEvent(key);
  // Work a listener does after its ack (recording a session, posting) must finish before the
  // database closes on shut-down; Bolt's own stop only waits for the HTTP responses.
  const inFlight = new Set<Promise<void>>();
  app.use(async ({ next }) => {
    const work = next();
    inFlight.add(work);
    try {
      await work;
    } finally {
      inFlight.delete(work);
    }
  });

  const subcommands = features.flatMap((f) => f.subcommands ?? []);
  // One word that is no sub-command is answered with the usage, not researched.
  const words = new Set(['help', ...subcommands.map((c) => c.phrase.split(' ')[0]!)]);
  app.command('/research', async ({ command, ack, respond }) => {
    const text = command.text.trim();
    const word = text.toLowerCase();
    if (!text || word === 'help' || (!/\s/.test(text) && !words.has(word))) {
      const unknown =
        text && word !== 'help'
          ? `\`${text}\` is not a sub-command. To research a topic, ask a whole question, e.g. \`/research what is ${text} and who uses it?\`\n\n`
          : '';
      await ack({ response_type: 'ephemeral', text: `${unknown}${USAGE}` });
      return;
    }
    await ack();
    await yieldToPendingRequests();
    const say = (reply: string) => respond({ response_type: 'ephemeral', text: reply });
    try {
      if (!(await once(`command:${command.trigger_id}`))) return;
      const place = { teamId: command.team_id, channelId: command.channel_id, userId: command.user_id };
      const sub = subcommands.find((c) =>
        c.takesText ? word === c.phrase || word.startsWith(`${c.phrase} `) : word === c.phrase,
      );
      const reply = sub
        ? await sub.run({
            ...place,
            teamDomain: command.team_domain,
            rest: text.slice(sub.phrase.length).trim(),
            triggerId: command.trigger_id,
          })
        : await service.startFromCommand(place, text);
      if (reply) await say(reply);
    } catch (err) {
      log.error({ err, team: command.team_id, channel: command.channel_id }, '/research failed');
      await say(SORRY).catch(() => {});
    }
  });

  app.event('app_mention', async ({ event, body, context }) => {
    if (event.bot_id || !event.user) return;
    const teamId = body.team_id;
    try {
      if (!(await once(`event:${body.event_id}`))) return;
      if (!(await once(`message:${teamId}:${event.channel}:${event.ts}`))) return;
      await service.onMention({
        teamId,
        channelId: event.channel,
        userId: event.user,
        ts: event.ts,
        threadTs: event.thread_ts,
        text: withoutMention(event.text, context.botUserId),
        isDm: false,
        hasFiles: Boolean((event as { files?: unknown[] }).files?.length),
      });
    } catch (err) {
      log.error({ err, team: teamId, channel: event.channel }, 'mention failed');
      await api
        .ephemeral(event.channel, event.user, { text: SORRY, blocks: [] }, event.thread_ts)
        .catch(() => {});
    }
  });

  app.message(async ({ message, body, context }) => {
    const m = message as {
      subtype?: string;
      bot_id?: string;
      user?: string;
      text?: string;
      ts: string;
      thread_ts?: string;
      channel: string;
      channel_type?: string;
      files?: unknown[];
    };
    // Human messages only: new ones, "also send to channel" replies and messages with files.
    if (m.subtype && m.subtype !== 'thread_broadcast' && m.subtype !== 'file_share') return;
    if (m.bot_id || !m.user || m.user === context.botUserId) return;
    const isDm = m.channel_type === 'im';
    // In channels an @mention also arrives as app_mention, which handles it.
    if (!isDm && context.botUserId && m.text?.includes(`<@${context.botUserId}>`)) return;
    const teamId = (body as { team_id: string }).team_id;
    const base = {
      teamId,
      channelId: m.channel,
      userId: m.user,
      ts: m.ts,
      text: withoutMention(m.text ?? '', context.botUserId),
      isDm,
      hasFiles: Boolean(m.files?.length),
    };
    try {
      if (!(await once(`event:${(body as { event_id: string }).event_id}`))) return;
      if (m.thread_ts && m.thread_ts !== m.ts)
        await service.onThreadReply({ ...base, threadTs: m.thread_ts });
      else if (isDm && (await once(`message:${teamId}:${m.channel}:${m.ts}`))) await service.onMention(base);
    } catch (err) {
      log.error({ err, team: teamId, channel: m.channel }, 'message failed');
    }
  });

  for (const feature of features) feature.register?.(app, { log, once, sorry: SORRY });

  app.error(async (err) => {
    log.error({ err }, 'Slack app error');
  });

  return {
    start: (door) => slack.start(door),
    async stop() {
      await slack.stop();
      await within(Promise.allSettled([...inFlight]), STOP_DEADLINE_MS).catch(() => {
        log.warn({ requests: inFlight.size }, 'stopped before every Slack request was handled');
      });
    },
  };
}

/** How long shut-down waits for listeners still working after their ack. */
const STOP_DEADLINE_MS = 10_000;

const SORRY = 'Something went wrong on my side; please try again in a minute.';

/** After the ack, requests already waiting are taken in first: in a burst every ack goes out before any work. */
function yieldToPendingRequests(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function withoutMention(text: string, botUserId: string | undefined): string {
  const own = botUserId ? new RegExp(`<@${botUserId}(\\|[^>]*)?>`, 'g') : /^\s*<@[UW][A-Z0-9]+(\|[^>]*)?>/;
  return text.replace(own, ' ').replace(/\s+/g, ' ').trim();
}
