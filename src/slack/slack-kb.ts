import type { IngestOutcome, KnowledgeLibrary } from '../ports/knowledge-library.js';
import type { Logger } from '../ports/logger.js';
import type { SlackApi } from './api/slack-api.js';
import { downloadFile, FileTooLarge, filesSharedBy } from './api/slack-files.js';
import { safeText } from './render/mrkdwn.js';
import type { FeatureCommand, SlackFeature } from './slack-feature.js';

/** Files shared this recently in the direct message are the ones `kb add` takes. */
const RECENT_SECONDS = 15 * 60;

/**
 * The team knowledge base from Slack: `/research kb add` (for the admins
 * listed in KB_ADMINS, in a direct message with the app) adds the files the
 * admin shared there in the last 15 minutes; `/research kb list` shows what
 * is in it. Each answer is one private message, a line per file.
 */
export class SlackKnowledgeBase {
  constructor(
    private readonly deps: {
      api: SlackApi;
      /** The knowledge base (its documents read within FILE_MAX_MB and READ_*). */
      library: KnowledgeLibrary;
      admins: readonly string[];
      log: Logger;
    },
  ) {}

  async add(place: { teamId: string; channelId: string; userId: string }): Promise<string> {
    if (!this.deps.admins.includes(place.userId))
      return 'Only the knowledge base admins (KB_ADMINS) can add documents. Ask one of them, or an operator with deep-research kb ingest.';
    if (!place.channelId.startsWith('D'))
      return 'Add documents in a direct message with me: share the files there, then run `/research kb add`.';
    const files = await filesSharedBy(this.deps.api, {
      channel: place.channelId,
      user: place.userId,
      withinSeconds: RECENT_SECONDS,
    });
    const { library } = this.deps;
    if (files.length === 0)
      return `Share the files in this direct message first (${library.kinds}), then run \`/research kb add\` within 15 minutes.`;
    const lines: string[] = [];
    for (const file of files) {
      const path = `slack://${place.teamId}/${file.id}/${file.name}`;
      let outcome: IngestOutcome;
      if (!library.takes(file.name)) {
        lines.push(`• ${safeText(file.name)}: not added: not a ${library.kinds} file`);
        continue;
      }
      try {
        const bytes = await downloadFile(this.deps.api, file, library.maxFileBytes);
        outcome = await library.ingestBytes({
          path,
          name: file.name,
          bytes,
          modifiedAt: new Date(Number(file.ts) * 1000),
        });
      } catch (error) {
        if (!(error instanceof FileTooLarge))
          this.deps.log.warn({ err: error, file: file.id }, 'could not read a shared file');
        outcome = { path, result: 'failed', reason: (error as Error).message };
      }
      lines.push(`• ${safeText(file.name)}: ${safeText(said(outcome))}`);
    }
    const total = (await library.list()).length;
    return `${lines.join('\n')}\nThe knowledge base holds ${total} document${total === 1 ? '' : 's'}.`;
  }

  async list(): Promise<string> {
    const documents = await this.deps.library.list();
    if (documents.length === 0) return 'The knowledge base is empty.';
    const shown = documents
      .slice(0, 50)
      .map((d) => `• ${safeText(d.title)} (${d.kind}, ${d.passages} passages)`);
    const more = documents.length > 50 ? `\n…and ${documents.length - 50} more.` : '';
    return `The knowledge base holds ${documents.length} document${documents.length === 1 ? '' : 's'}:\n${shown.join('\n')}${more}`;
  }
}

function said(outcome: IngestOutcome): string {
  switch (outcome.result) {
    case 'added':
    case 'updated':
      return `${outcome.result} (${outcome.passages} passages)`;
    case 'unchanged':
      return 'already in the knowledge base, unchanged';
    case 'gone':
      return 'gone';
    default:
      return `not added: ${outcome.reason}`;
  }
}

/** `/research kb` (or `kb add`) and `kb list`. */
export function knowledgeFeature(kb: SlackKnowledgeBase): SlackFeature {
  const add = (c: FeatureCommand) => kb.add(c);
  return {
    name: 'knowledge base',
    subcommands: [
      { phrase: 'kb', run: add },
      { phrase: 'kb add', run: add },
      { phrase: 'kb list', run: () => kb.list() },
    ],
  };
}
