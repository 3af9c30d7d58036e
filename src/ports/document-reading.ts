/**
 * Reading untrusted documents (pages, PDFs, Word files, HTML, CSV, thread
 * files, knowledge-base uploads) as a port: one reader per process, with one
 * budget, that every path passes through.
 */

/** The kinds of document the reader takes. */
export type ReadKind = 'pdf' | 'docx' | 'html' | 'markdown' | 'text' | 'csv';

const KINDS: Record<string, ReadKind> = {
  md: 'markdown',
  markdown: 'markdown',
  mdx: 'markdown',
  txt: 'text',
  text: 'text',
  html: 'html',
  htm: 'html',
  pdf: 'pdf',
  docx: 'docx',
  csv: 'csv',
};

/** The kind of document a file's name says it is, or undefined for kinds the reader does not take. */
export function readKind(name: string): ReadKind | undefined {
  const extension = /\.([^./\\]+)$/.exec(name)?.[1]?.toLowerCase();
  return extension === undefined ? undefined : KINDS[extension];
}

/** A size as people read it: "20 MB", "32.8 MB" (`round` rounds the tenths). */
export function megabytes(bytes: number, round: (n: number) => number = Math.round): string {
  return `${round((bytes / 1_048_576) * 10) / 10} MB`;
}

/** What a file shared with a question may be. */
export const SHARED_KINDS = 'a PDF, Word (.docx), Markdown, text, HTML or CSV file';

/** Readable text pulled out of a page or a file, with what it says about itself. */
export interface ExtractedText {
  title: string;
  text: string;
  author?: string;
  publishedAt?: string;
}

/** What one document may cost to read (FILE_MAX_MB and the READ_* variables). */
export interface ReadLimits {
  /** Bytes of a file read (shared in Slack, given in the terminal, added to the knowledge base). */
  maxFileBytes: number;
  /** Bytes a compressed document (a .docx) may unpack to. */
  maxInflatedBytes: number;
  /** Characters of text kept; the rest is cut with a note. */
  maxChars: number;
  /** How long extracting one document may take before its thread is stopped. */
  maxMs: number;
  /** The heap a reading thread may use before it is stopped. */
  maxMemoryMb: number;
}

export const READ_DEFAULTS: ReadLimits = {
  maxFileBytes: 20 * 1_048_576,
  maxInflatedBytes: 8 * 1_048_576,
  maxChars: 1_000_000,
  maxMs: 30_000,
  maxMemoryMb: 384,
};

export interface DocumentInput {
  kind: ReadKind;
  bytes: Uint8Array;
  /** A file's name (its title when the document declares none). */
  name?: string;
  /** The Content-Type a server sent (its charset). */
  contentType?: string;
  /** A page's response headers: an HTML page is then checked for a bot check. */
  headers?: Record<string, string | string[] | undefined>;
}

export type ReadOutcome =
  | {
      ok: true;
      doc: ExtractedText;
      /** The bot check an HTML page turned out to be (a vendor's name). */
      botCheck?: string;
      /** Said when text was cut at the character limit. */
      note?: string;
    }
  | { ok: false; kind: 'too_large' | 'too_slow' | 'unreadable'; reason: string };

export interface DocumentReading {
  readonly limits: ReadLimits;
  /** A document's text within the limits; a read the caller aborts rejects with its reason. */
  read(input: DocumentInput, signal?: AbortSignal): Promise<ReadOutcome>;
  /**
   * A file's text, by the kind its name says, within the limits: a file of
   * another kind, over FILE_MAX_MB or with no text is an outcome too.
   */
  readFile(name: string, bytes: Uint8Array, signal?: AbortSignal): Promise<ReadOutcome>;
  /** A file of `size` bytes, refused before it is read. */
  tooBig(size: number): ReadOutcome & { ok: false };
  /** Stops the reading threads (reads under way are abandoned). */
  close(): Promise<void>;
}
