/**
 * What research was shown of each source, kept with the session: the text
 * a claim can later be checked against, and what a resumed or continued
 * session reads instead of fetching a page again.
 */
export interface SourceText {
  key: string;
  n: number;
  url?: string;
  title: string;
  text: string;
}

export interface StoredSourceText extends SourceText {
  fetchedAt: string;
  truncated: boolean;
}

/** One passage of a kept source, with the source it belongs to. */
export interface KeptPassage {
  key: string;
  title: string;
  url?: string;
  body: string;
}

export interface SourceTexts {
  /**
   * Keeps a source's text for a session (capped); shown again (another
   * passage of the same document), the new text is added to what is kept.
   */
  keep(sessionId: string, source: SourceText): Promise<void>;
  /** The kept text of a source in the first of these sessions that has it (a session, then those it continues). */
  find(sessionIds: string[], key: string): Promise<StoredSourceText | null>;
  /**
   * Passages of these sessions' kept sources that share most words with
   * `text`, best first: where a claim's support may be when its cited source
   * lacks it.
   */
  passages(sessionIds: string[], text: string, limit: number, keyPrefix?: string): Promise<KeptPassage[]>;
}
