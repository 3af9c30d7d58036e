import type { DocumentReading } from '../ports/document-reading.js';
import { type FileReads, withFileReads } from '../ports/file-reads.js';
import type { Logger } from '../ports/logger.js';
import type { SessionView, SharedFile, SharedFiles } from '../ports/research.js';
import type { SourceTexts } from '../ports/source-texts.js';
import type { RecordAudit } from './records/audit-store.js';
import type { SessionRow } from './records/session-store.js';

/** A given file's bytes, from where its surface said it is (Slack's file host, the terminal's disk), at most `maxBytes`. */
export type FetchGivenFile = (file: SharedFile, maxBytes: number) => Promise<Buffer>;

export interface GivenFileDeps {
  sources: SourceTexts;
  reads: FileReads;
  reader: DocumentReading;
  /** Where each origin's files are fetched from; an origin with none has its files refused. */
  fetchers: Partial<Record<SessionRow['origin'], FetchGivenFile>>;
  /** The audit trail: every file read (or refused) on the requester's behalf. */
  audit?: RecordAudit;
}

/**
 * A session step before its runs: the files given with its question (shared
 * in its Slack thread, or with `ask --file`), fetched from where they are,
 * read through the document reader and kept with the session as sources not
 * yet cited. Each is read once for the session and those continuing it (a
 * file kept, or refused, before is not read again); one whose read never
 * finished (the process stopped while reading it) is not tried again.
 * Returns the files as research got them, refusals among those not read,
 * with why.
 */
export async function readGivenFiles(
  deps: GivenFileDeps,
  session: Pick<SessionRow, 'id' | 'origin'> &
    Partial<Pick<SessionRow, 'requester' | 'teamId' | 'channelId'>>,
  view: SessionView,
  log: Logger,
): Promise<SharedFiles | null> {
  if (!view.files?.given.length) return view.files;
  const sessionId = session.id;
  const lineage = [sessionId, ...view.continues];
  const recorded = new Map((await deps.reads.of(lineage)).map((r) => [r.key, r]));
  const fetch = deps.fetchers[session.origin];
  for (const file of view.files.given) {
    if (await deps.sources.find(lineage, file.key)) continue;
    const before = recorded.get(file.key) ?? (await deps.reads.begin(sessionId, file.key));
    if (before?.state === 'reading') {
      log.warn(
        { sessionId, file: file.name },
        'a given file was being read when the app stopped; it is left out',
      );
      await deps.reads.end(
        sessionId,
        file.key,
        'refused',
        'reading it was interrupted (the app stopped while reading it)',
      );
    }
    if (before) continue;
    const audited = (outcome: 'read' | 'refused', note?: string) =>
      deps.audit?.({
        actor: session.requester ?? 'unknown',
        action: 'file.read',
        teamId: session.teamId,
        channelId: session.channelId,
        sessionId,
        detail: { file: file.name, outcome, ...(note ? { note: note.slice(0, 200) } : {}) },
      });
    const refuse = async (note: string) => {
      await audited('refused', note);
      await deps.reads.end(sessionId, file.key, 'refused', note);
    };
    if (!fetch) {
      await refuse('this process cannot fetch it');
      continue;
    }
    try {
      const read = await deps.reader.readFile(file.name, await fetch(file, deps.reader.limits.maxFileBytes));
      if (!read.ok) {
        log.warn({ sessionId, file: file.name, reason: read.reason }, 'a given file was not read');
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
      await audited('read', read.note);
    } catch (err) {
      log.warn(
        { err, sessionId, file: file.name },
        'could not read a given file; research goes on without it',
      );
      await refuse((err as Error).message);
    }
  }
  return withFileReads(view.files, await deps.reads.of(lineage));
}
