import { readKind, SHARED_KINDS } from '../ports/document-reading.js';
import type { SharedFile, SharedFiles } from '../ports/research.js';
import type { FetchGivenFile } from '../sessions/read-given-files.js';
import type { SlackApi } from './api/slack-api.js';
import { downloadFile, onSlackFileHost, type SlackFileObject } from './api/slack-files.js';

/**
 * The files shared in a thread up to the question, sorted into those
 * research reads (a kind it takes, within `maxBytes`, on Slack's file host)
 * and those it does not, with why; nothing is downloaded here, so the plan
 * never lists as read a file the file-host policy would refuse.
 */
export function sortSharedFiles(files: SlackFileObject[], maxBytes: number, apiUrl: string): SharedFiles {
  const given: SharedFile[] = [];
  const skipped: SharedFiles['skipped'] = [];
  for (const f of files) {
    const name = f.name ?? f.title ?? f.id ?? 'a file';
    if (!f.id || !f.url_private_download || f.mode === 'tombstone' || f.mode === 'external') {
      skipped.push({ name, reason: 'Slack does not let the app read it' });
    } else if (
      !URL.canParse(f.url_private_download) ||
      !onSlackFileHost(new URL(f.url_private_download), apiUrl)
    ) {
      skipped.push({ name, reason: "not on Slack's file host" });
    } else if (!readKind(name)) skipped.push({ name, reason: `not ${SHARED_KINDS}` });
    else if ((f.size ?? 0) > maxBytes)
      skipped.push({ name, reason: `larger than ${Math.round(maxBytes / 1_048_576)} MB` });
    else {
      given.push({
        key: `file:${f.id}`,
        name,
        ...(f.permalink ? { url: f.permalink } : {}),
        from: f.url_private_download,
        size: f.size ?? 0,
      });
    }
  }
  return { given, skipped };
}

/** Where a Slack session's given files come from: Slack's file host, with the bot token (see downloadFile). */
export function slackFileFetcher(api: SlackApi): FetchGivenFile {
  return (file, maxBytes) =>
    downloadFile(api, { id: file.key, name: file.name, size: file.size, url: file.from, ts: '0' }, maxBytes);
}
