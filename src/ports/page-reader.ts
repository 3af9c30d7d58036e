/** A page turned into readable text. */
export interface Page {
  url: string;
  title: string;
  text: string;
  author?: string;
  publishedAt?: string;
}

/** Why a read failed, as a few kinds (for counting); `reason` says it for the model and the logs. */
export type PageFailureKind =
  | 'refused'
  | 'bot_check'
  | 'http_error'
  | 'timeout'
  | 'unreachable'
  | 'too_large'
  | 'unreadable'
  | 'failed'
  /** Not read again: an earlier version of the research read it. */
  | 'already_read';

/** Reading a page fails for ordinary reasons (404, bot wall, not text): that is a value, not an exception. */
export type PageResult = { ok: true; page: Page } | { ok: false; reason: string; kind: PageFailureKind };

export interface PageReader {
  read(url: string, options: { signal: AbortSignal }): Promise<PageResult>;
}
