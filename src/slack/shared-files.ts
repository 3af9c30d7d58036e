import { type DocumentReading, readKind, SHARED_KINDS } from '../ports/document-reading.js';
import { type FileReads, withFileReads } from '../ports/file-reads.js';
import type { Logger } from '../ports/logger.js';
import type { SessionView, SharedFile, SharedFiles } from '../ports/research.js';
import type { SourceTexts } from '../ports/source-texts.js';
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

/**
 * Before a session's runs: the files shared with its question, read with the
 * bot token through the document reader and kept with the session as sources
 * not yet cited. Each is read once for the session and those continuing it
 * (a file kept, or refused, before is not read again); one whose read never
 * finished (the process stopped while reading it) is not tried again. Returns
 * the files as research got them, refusals among those not read, with why.
 */
export async function readSharedFiles(
  deps: { api: SlackApi; sources: SourceTexts; reads: FileReads; reader: DocumentReading },
  sessionId: string,
  view: SessionView,
  log: Logger,
): Promise<SharedFiles | null> {
  if (!view.files?.given.length) return view.files;
  const lineage = [sessionId, ...view.continues];
  const recorded = new Map((await deps.reads.of(lineage)).map((r) => [r.key, r]));
  for (const file of view.files.given) {
    if (await deps.sources.find(lineage, file.key)) continue;
    const before = recorded.get(file.key) ?? (await deps.reads.begin(sessionId, file.key));
    if (before?.state === 'reading') {
      log.warn(
        { sessionId, file: file.name },
        'a shared file was being read when the app stopped; it is left out',
      );
      await deps.reads.end(
        sessionId,
        file.key,
        'refused',
        'reading it was interrupted (the app stopped while reading it)',
      );
    }
    if (before) continue;
    const refuse = (note: string) => deps.reads.end(sessionId, file.key, 'refused', note);
    try {
      const slackFile = { id: file.key, name: file.name, size: file.size, url: file.from, ts: '0' };
      const read = await deps.reader.readFile(
        file.name,
        await downloadFile(deps.api, slackFile, deps.reader.limits.maxFileBytes),
      );
      if (!read.ok) {
        log.warn({ sessionId, file: file.name, reason: read.reason }, 'a shared file was not read');
        await refuse(read.reason);
        continue;
      }
      await deps.sources.keep(sessionId, {
        key: file.key,
        n: 0,
        ...(file.url ? { url: file.url } : {}),
        title: file.name,
        text: read.doc.text,
      });
      await deps.reads.end(sessionId, file.key, 'read', read.note);
    } catch (err) {
      log.warn(
        { err, sessionId, file: file.name },
        'could not read a shared file; research goes on without it',
      );
      await refuse((err as Error).message);
    }
  }
  return withFileReads(view.files, await deps.reads.of(lineage));
}
