import type { Logger } from '../ports/logger.js';
import type { SessionView, SharedFile, SharedFiles } from '../ports/research.js';
import type { SourceTexts } from '../ports/source-texts.js';
import { fileText, readableFile, SHARED_KINDS } from '../search/extract/file-text.js';
import type { SlackApi } from './slack-api.js';
import { downloadFile, onSlackFileHost, type SlackFileObject } from './slack-files.js';

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
    } else if (!readableFile(name)) skipped.push({ name, reason: `not ${SHARED_KINDS}` });
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

/**
 * Before a session's runs: the files shared with its question, read with the
 * bot token and kept with the session as sources not yet cited (once: a
 * file already kept is not read again). A file that cannot be read is
 * logged and research goes on without it.
 */
export async function readSharedFiles(
  deps: { api: SlackApi; sources: SourceTexts; maxBytes: number },
  sessionId: string,
  view: SessionView,
  log: Logger,
): Promise<void> {
  for (const file of view.files?.given ?? []) {
    try {
      if (await deps.sources.find([sessionId], file.key)) continue;
      const slackFile = { id: file.key, name: file.name, size: file.size, url: file.from, ts: '0' };
      const text = await fileText(file.name, await downloadFile(deps.api, slackFile, deps.maxBytes));
      if (!text.trim()) throw new Error('no text found (a scanned PDF needs text recognition first)');
      await deps.sources.keep(sessionId, {
        key: file.key,
        n: 0,
        ...(file.url ? { url: file.url } : {}),
        title: file.name,
        text,
      });
    } catch (err) {
      log.warn(
        { err, sessionId, file: file.name },
        'could not read a shared file; research goes on without it',
      );
    }
  }
}
