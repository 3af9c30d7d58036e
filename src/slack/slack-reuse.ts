import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { Logger } from '../ports/logger.js';
import type { ReuseOfferStore } from '../sessions/records/reuse-offer-store.js';
import type { SessionRow } from '../sessions/records/session-store.js';
import type { ReportAsking } from '../sessions/report-asking.js';
import type { ReportLibrary } from '../sessions/report-library.js';
import { mayShowIn } from '../sessions/report-visibility.js';
import type { SlackApi } from './api/slack-api.js';
import type { ChannelMembers } from './channel-members.js';
import { answerMessage } from './render/answer-message.js';
import { ACTION, type SlackMessage } from './render/messages.js';
import {
  type Earlier,
  privateReuseOfferMessage,
  reuseChosenMessage,
  reuseOfferMessage,
} from './render/reuse-message.js';
import { type NewThreadSession, SessionStarter, type SessionStarterDeps } from './session-starter.js';
import type { SlackFeature } from './slack-feature.js';
import { SessionThread } from './thread/session-thread.js';

export interface SlackReuseDeps extends SessionStarterDeps {
  api: SlackApi;
  library: ReportLibrary;
  members: ChannelMembers;
  offers: ReuseOfferStore;
  asking: ReportAsking;
  /** REUSE_DAYS: how far back an earlier report is offered (0: never). */
  reuseDays: number;
}

type Choice = 'read' | 'ask' | 'research';
type Chosen = { replace?: SlackMessage; reply?: string };

/**
 * Reuse before paying again: a new question that repeats a report the person
 * may see (from the last REUSE_DAYS) is offered that report before anything
 * is researched: [Read it] (nothing is started, nothing spent), [Ask it] (the
 * question answered from that report's sources) or [Research anyway].
 */
export class SlackReuse {
  private readonly starter: SessionStarter;

  constructor(private readonly deps: SlackReuseDeps) {
    // Research chosen anyway starts without being offered again.
    this.starter = new SessionStarter({ ...deps, reuse: undefined });
  }

  /** True when the earlier report was offered instead of starting (the person chooses next). */
  async offer(s: NewThreadSession): Promise<boolean> {
    if (this.deps.reuseDays <= 0) return false;
    const viewer = { userId: s.userId, teamId: s.teamId };
    const canRead = (channel: string, user: string) => this.deps.members.has(channel, user);
    const earlier = await this.deps.library
      .closest(s.question, viewer, canRead, this.deps.reuseDays)
      .catch((err) => {
        this.deps.log.warn({ err }, 'could not look for an earlier report; researching');
        return null;
      });
    const row = earlier && (await this.deps.sessions.get(earlier.id));
    if (!row) return false;
    // Words miss what one term changes (solar or wind power): the model confirms before anything is offered.
    if (!(await this.deps.asking.sameQuestion(row.question, s.question, viewer))) return false;
    // Offered to everyone here only when everyone here may read it; else to the asker alone.
    const shown = await this.showableIn(row, s.channelId, s.teamId);
    const id = await this.deps.offers.create({
      teamId: s.teamId,
      channelId: s.channelId,
      threadTs: s.threadTs,
      requester: s.userId,
      question: s.question,
      openerRole: s.role,
      openerTs: s.roleTs,
      turn: s.turn,
      earlierSession: row.id,
    });
    const described = await this.describe(row);
    if (shown) await this.deps.api.post(s.channelId, reuseOfferMessage(id, described), s.threadTs);
    else
      await this.deps.api.ephemeral(
        s.channelId,
        s.userId,
        privateReuseOfferMessage(id, described),
        s.threadTs,
      );
    this.deps.log.info({ offer: id, earlier: row.id, shown }, 'earlier report offered');
    return true;
  }

  /** The visibility policy's answer for this report in this conversation. */
  private showableIn(row: SessionRow, channelId: string, teamId: string): Promise<boolean> {
    const place = {
      origin: row.origin,
      teamId: row.teamId,
      channelId: row.channelId,
      requester: row.requester,
    };
    return mayShowIn(place, { channelId, teamId }, (c) => this.deps.members.of(c), this.deps.log);
  }

  async choose(choice: Choice, value: string, userId: string): Promise<Chosen> {
    const offer = await this.deps.offers.get(value);
    if (!offer) return { reply: 'That offer no longer exists.' };
    if (offer.requester !== userId) return { reply: `Only <@${offer.requester}>, who asked, can choose.` };
    const earlier = await this.deps.sessions.get(offer.earlierSession);
    if (!earlier) return { reply: 'That earlier report no longer exists.' };
    if (!(await this.deps.offers.choose(offer.id, choice))) return {};
    const shown = await this.describe(earlier);
    if (choice === 'read')
      return {
        replace: reuseChosenMessage(shown, 'Nothing new was researched: the earlier report answers it.'),
      };
    if (choice === 'research') {
      const refused = await this.starter.create({
        teamId: offer.teamId,
        channelId: offer.channelId,
        userId: offer.requester,
        threadTs: offer.threadTs,
        question: offer.question,
        turn: offer.turn,
        role: offer.openerRole,
        roleTs: offer.openerTs,
      });
      if (refused) await this.deps.offers.reopen(offer.id);
      return refused
        ? { reply: refused }
        : { replace: reuseChosenMessage(shown, ':mag: Researching anyway.') };
    }
    // Asked of the earlier report: the answer is posted in this thread (stored with that report's session),
    // so only where everyone may read that report (an offer to the asker alone has no [Ask it]).
    if (!(await this.showableIn(earlier, offer.channelId, offer.teamId))) {
      await this.deps.offers.reopen(offer.id);
      return {
        reply:
          'That report is from a conversation not everyone here is in, so it is not answered here: open it with Read it, or research anyway.',
      };
    }
    const thread = new SessionThread({
      sessionId: earlier.id,
      channelId: offer.channelId,
      threadTs: offer.threadTs,
    });
    const asked = await this.deps.asking.ask(
      earlier,
      offer.question,
      { userId, teamId: offer.teamId },
      (a) =>
        a.kind === 'answered' ? [thread.post({ kind: 'answer', id: a.id }, answerMessage(a.answer))] : [],
    );
    if (asked.kind !== 'answered') {
      await this.deps.offers.reopen(offer.id);
      return {
        reply:
          asked.kind === 'refused'
            ? asked.sentence
            : "That report's sources do not answer your question: choose Research anyway to research it.",
      };
    }
    this.deps.deliver();
    return { replace: reuseChosenMessage(shown, 'Answered from that report and its sources, below.') };
  }

  private async describe(row: SessionRow): Promise<Earlier> {
    const link =
      row.channelId && row.threadTs
        ? await this.deps.api.permalink(row.channelId, row.threadTs).catch(() => undefined)
        : undefined;
    return {
      question: row.question,
      date: row.createdAt,
      requesterName: await this.deps.api.userName(row.requester).catch(() => row.requester),
      sources: row.report?.sources.length ?? 0,
      ...(link ? { link } : {}),
    };
  }
}

/** The offer's three buttons: the choice replaces the offer; a refusal is said privately. */
export function reuseFeature(reuse: SlackReuse): SlackFeature {
  return { name: 'reuse', register: (app, { log, sorry }) => reuseActions(app, reuse, log, sorry) };
}

function reuseActions(app: App, reuse: SlackReuse, log: Logger, sorry: string): void {
  for (const [action, choice] of [
    [ACTION.reuseRead, 'read'],
    [ACTION.reuseAsk, 'ask'],
    [ACTION.reuseResearch, 'research'],
  ] as const) {
    app.action<BlockAction>(action, async ({ ack, body, action: clicked, respond }) => {
      await ack();
      try {
        const chosen = await reuse.choose(choice, (clicked as ButtonAction).value ?? '', body.user.id);
        if (chosen.replace) await respond({ replace_original: true, ...chosen.replace });
        else if (chosen.reply)
          await respond({ response_type: 'ephemeral', replace_original: false, text: chosen.reply });
      } catch (err) {
        log.error({ err, offer: (clicked as ButtonAction).value }, 'reuse choice failed');
        await respond({ response_type: 'ephemeral', replace_original: false, text: sorry }).catch(() => {});
      }
    });
  }
}
