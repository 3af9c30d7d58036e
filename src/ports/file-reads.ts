import type { SharedFiles } from './research.js';

/**
 * How reading one file shared with a question went, kept with its session:
 * a file is read once (not again on resume or [Research more]), a refusal is
 * said under the plan, and a read the process never finished (it stopped, or
 * was stopped, while reading) is not tried again.
 */
export interface FileRead {
  key: string;
  state: 'reading' | 'read' | 'refused';
  /** Why it was refused, or what was left out of it (text cut at READ_MAX_CHARS). */
  note?: string;
}

export interface FileReads {
  /** The reads recorded for these sessions' files (a session, then those it continues). */
  of(sessionIds: string[]): Promise<FileRead[]>;
  /** Records that a read starts; returns the read recorded before, or null when this is the first. */
  begin(sessionId: string, key: string): Promise<FileRead | null>;
  /** Records how a read ended (for this session, whichever session's read it was). */
  end(sessionId: string, key: string, state: 'read' | 'refused', note?: string): Promise<void>;
}

/** The files as research got them: a refused file among those not read, with why; a cut file with its note. */
export function withFileReads(files: SharedFiles, reads: FileRead[]): SharedFiles {
  const byKey = new Map(reads.map((r) => [r.key, r]));
  const given: SharedFiles['given'] = [];
  const skipped = [...files.skipped];
  for (const file of files.given) {
    const read = byKey.get(file.key);
    if (read?.state === 'refused')
      skipped.push({ name: file.name, reason: read.note ?? 'it could not be read' });
    else given.push(read?.note ? { ...file, note: read.note } : file);
  }
  return { given, skipped };
}
