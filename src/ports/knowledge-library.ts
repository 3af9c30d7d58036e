/**
 * The team's knowledge base as the people who keep it see it (`kb ingest`,
 * `kb list`, `kb remove`, `/research kb add`): documents added from files,
 * listed and removed. Research searches it through `KnowledgeBase`.
 */

export type IngestOutcome =
  | { path: string; result: 'added' | 'updated'; passages: number }
  | { path: string; result: 'unchanged' }
  | { path: string; result: 'skipped' | 'failed' | 'missing'; reason: string }
  /** Stored from an earlier ingest of this folder, but no longer on disk. */
  | { path: string; result: 'gone' };

export interface LibraryDocument {
  id: string;
  path: string;
  title: string;
  kind: string;
  passages: number;
  ingestedAt: Date;
}

export interface KnowledgeLibrary {
  /** The kinds of file it takes, as a person is told ("Markdown, text, HTML or PDF"). */
  readonly kinds: string;
  /** Whether it takes a file of this name. */
  takes(name: string): boolean;
  /** The largest file it downloads (FILE_MAX_MB). */
  readonly maxFileBytes: number;
  /** Files and folders on this machine (folders recursively), each outcome reported as it is known. */
  ingestPaths(paths: string[], report: (outcome: IngestOutcome) => void): Promise<void>;
  /** One file's bytes (an upload), kept under `path`. */
  ingestBytes(file: { path: string; name: string; bytes: Buffer; modifiedAt: Date }): Promise<IngestOutcome>;
  list(): Promise<LibraryDocument[]>;
  /** The documents at `path` or under it (a folder). */
  listUnder(path: string, separator?: string): Promise<LibraryDocument[]>;
  remove(ids: string[]): Promise<number>;
}
