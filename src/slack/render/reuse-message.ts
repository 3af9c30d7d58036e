import { ACTION, button, oneLine, type SlackMessage, sections } from './messages.js';
import { safeText } from './mrkdwn.js';

export interface Earlier {
  question: string;
  date: Date;
  /** How Slack shows who asked it (a name, not a mention: nobody is pinged). */
  requesterName: string;
  sources: number;
  link?: string;
}

/** "Researched on 12 Nov by Ann: … · 31 sources" with [Read it] [Ask it] [Research anyway]. */
export function reuseOfferMessage(offerId: string, earlier: Earlier): SlackMessage {
  const when = earlier.date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
  const title = safeText(oneLine(earlier.question, 150));
  const linked = earlier.link ? `<${earlier.link}|${title}>` : title;
  const line = `:books: Researched on ${when} by ${safeText(earlier.requesterName)}: ${linked} · ${earlier.sources} ${earlier.sources === 1 ? 'source' : 'sources'}`;
  const value = offerId;
  return {
    text: line.replace(':books: ', ''),
    blocks: [
      ...sections(
        `${line}\nRead that report, ask it your question (answered from its sources, in seconds), or research anyway.`,
      ),
      {
        type: 'actions',
        block_id: 'reuse_actions',
        elements: [
          button('Read it', ACTION.reuseRead, value, 'primary'),
          button('Ask it', ACTION.reuseAsk, value),
          button('Research anyway', ACTION.reuseResearch, value),
        ],
      },
    ],
  };
}

/**
 * The offer when the earlier report is from a conversation not everyone here
 * may read: shown to the asker alone (ephemeral), with [Read it] (a link only
 * its readers can open) and [Research anyway]; nothing from it is answered here.
 */
export function privateReuseOfferMessage(offerId: string, earlier: Earlier): SlackMessage {
  const when = earlier.date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
  const title = safeText(oneLine(earlier.question, 150));
  const linked = earlier.link ? `<${earlier.link}|${title}>` : title;
  const line = `:books: Only you can see this: a report from ${when} that you can read may answer this. It is from a conversation not everyone here is in, so it is not shown here: ${linked}`;
  return {
    text: 'An earlier report you can read may answer this (only you can see this).',
    blocks: [
      ...sections(`${line}
Read it there, or research anyway here.`),
      {
        type: 'actions',
        block_id: 'reuse_actions',
        elements: [
          button('Read it', ACTION.reuseRead, offerId, 'primary'),
          button('Research anyway', ACTION.reuseResearch, offerId),
        ],
      },
    ],
  };
}

/** The offer once chosen: what was chosen, without its buttons. */
export function reuseChosenMessage(earlier: Earlier, chosen: string): SlackMessage {
  const title = safeText(oneLine(earlier.question, 150));
  const linked = earlier.link ? `<${earlier.link}|${title}>` : title;
  return { text: chosen, blocks: sections(`:books: Earlier report: ${linked}\n${chosen}`) };
}
