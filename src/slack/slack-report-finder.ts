import type { ReportLibrary } from '../sessions/report-library.js';
import type { SlackApi } from './api/slack-api.js';
import type { ChannelMembers } from './channel-members.js';
import { count, oneLine } from './render/messages.js';
import { safeText } from './render/mrkdwn.js';
import { reportLinks } from './report-links.js';
import type { SlackFeature } from './slack-feature.js';

/**
 * `/research find <words>`: the best matching finished reports the person
 * may see (Slack's membership decides), answered privately: the question, its
 * date, who asked, how many sources, links to the thread and the canvas.
 */
export class SlackReportFinder {
  constructor(private readonly deps: { library: ReportLibrary; members: ChannelMembers; api: SlackApi }) {}

  async find(words: string, who: { userId: string; teamId: string }): Promise<string> {
    if (!words.trim()) return 'Say what to look for, e.g. `/research find heat pumps`.';
    const matches = await this.deps.library.find(words, who, (channel, user) =>
      this.deps.members.has(channel, user),
    );
    if (matches.length === 0)
      return `No report you can see matches "${safeText(oneLine(words, 80))}". Ask a new question with \`/research <question>\`.`;
    const lines = await Promise.all(
      matches.map(async (m) => {
        const title = safeText(oneLine(m.question, 100));
        const link = await reportLinks(this.deps.api, m);
        const thread = link.thread ? `<${link.thread}|${title}>` : title;
        const canvas = link.canvas ? ` · <${link.canvas}|canvas>` : '';
        const date = m.createdAt.toISOString().slice(0, 10);
        return `• ${thread} · ${date} · asked by <@${m.requester}> · ${count(m.sources, 'source')}${canvas}`;
      }),
    );
    return `*Reports matching "${safeText(oneLine(words, 80))}"*\n${lines.join('\n')}`;
  }
}

/** `/research find <words>`: earlier reports, as the person may see them. */
export function finderFeature(finder: SlackReportFinder): SlackFeature {
  return {
    name: 'find',
    subcommands: [
      {
        phrase: 'find',
        takesText: true,
        run: (c) => finder.find(c.rest, { userId: c.userId, teamId: c.teamId }),
      },
    ],
  };
}
