/** A page turned into readable text. */
export interface Page {
  url: string;
  title: string;
  text: string;
  author?: string;
  publishedAt?: string;
}

/** Reading a page fails for ordinary reasons (404, bot wall, not text): that is a value, not an exception. */
export type PageResult = { ok: true; page: Page } | { ok: false; reason: string };

export interface PageReader {
  read(url: string, options: { signal: AbortSignal }): Promise<PageResult>;
}
