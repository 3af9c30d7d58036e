import { withDeadline } from '../../engine/deadline-signal.js';
import type { DocumentReading, ExtractedText } from '../../ports/document-reading.js';
import type { PageReader, PageResult } from '../../ports/page-reader.js';
import { DocumentReader } from '../read/document-reader.js';
import { type Resolve, systemResolve } from './guarded-lookup.js';
import { type FetchedPage, FetchFailure, PageFetcher, type PageFetcherOptions } from './page-fetcher.js';

export const PAGE_READER_DEFAULTS: PageFetcherOptions = {
  resolve: systemResolve,
  allowPrivate: false,
  maxBytes: 10_000_000,
  maxRedirects: 5,
  connectTimeoutMs: 15_000,
  readTimeoutMs: 20_000,
  userAgent: 'Mozilla/5.0 (compatible; DeepResearchForSlack/0.1; research agent)',
};

const STATUS_TEXT: Record<number, string> = {
  401: 'login required',
  402: 'payment required',
  403: 'forbidden',
  404: 'not found',
  410: 'gone',
  429: 'rate limited',
  451: 'unavailable for legal reasons',
};

/**
 * `open_url`: fetch behind the SSRF guard, then the document reader (HTML
 * through Readability, PDF through pdf.js, plain text, Markdown and JSON as
 * they are, in a reading thread within its limits). Every ordinary failure
 * is a value with a reason the model can act on.
 */
export class HttpPageReader implements PageReader {
  private readonly fetcher: PageFetcher;

  private readonly deadlineMs: number;

  private readonly reader: DocumentReading;

  /**
   * `deadlineMs`: one page's download, however slowly the server trickles it,
   * ends after this (default 30 s); `reader`: the process's document reader.
   */
  constructor(
    options: Partial<PageFetcherOptions> & {
      resolve?: Resolve;
      deadlineMs?: number;
      reader?: DocumentReading;
    } = {},
  ) {
    this.fetcher = new PageFetcher({ ...PAGE_READER_DEFAULTS, ...options });
    this.deadlineMs = options.deadlineMs ?? 30_000;
    this.reader = options.reader ?? new DocumentReader();
  }

  async read(url: string, options: { signal: AbortSignal }): Promise<PageResult> {
    let fetched: FetchedPage;
    let late = () => false;
    try {
      fetched = await withDeadline(this.deadlineMs, [options.signal], (signal, expired) => {
        late = expired;
        return this.fetcher.fetch(url, signal);
      });
    } catch (error) {
      if (late() && !options.signal.aborted)
        return {
          ok: false,
          reason: `the page did not arrive within ${this.deadlineMs / 1000} s (the server is too slow)`,
          kind: 'timeout',
        };
      if (error instanceof FetchFailure) return { ok: false, reason: error.message, kind: error.kind };
      throw error;
    }
    return this.extract(fetched, options.signal);
  }

  close(): void {
    this.fetcher.close();
  }

  /** An HTML error page is read too: a bot check answers with one, and is said as such. */
  private async extract(fetched: FetchedPage, signal: AbortSignal): Promise<PageResult> {
    const kind = contentKind(fetched);
    const failed = fetched.status >= 400;
    if (kind === 'other')
      return {
        ok: false,
        reason: `unsupported content type (${mimeOf(fetched.contentType) || 'unknown'})`,
        kind: 'unreadable',
      };
    if (failed && kind !== 'html')
      return { ok: false, reason: statusReason(fetched.status), kind: 'http_error' };
    const read = await this.reader.read(
      {
        kind,
        bytes: fetched.body,
        contentType: fetched.contentType,
        ...(kind === 'html' ? { headers: fetched.headers } : {}),
      },
      signal,
    );
    if (!read.ok)
      return {
        ok: false,
        reason: read.kind === 'unreadable' ? `could not extract text (${read.reason})` : read.reason,
        kind: read.kind === 'too_slow' ? 'timeout' : read.kind,
      };
    if (read.botCheck)
      return { ok: false, reason: `blocked by a bot check (${read.botCheck})`, kind: 'bot_check' };
    if (failed) return { ok: false, reason: statusReason(fetched.status), kind: 'http_error' };
    return done(fetched.url, read.doc);
  }
}

function done(url: string, page: ExtractedText): PageResult {
  return { ok: true, page: { url, ...page, title: page.title || titleFromUrl(url) } };
}

function contentKind(fetched: FetchedPage): 'html' | 'pdf' | 'text' | 'other' {
  const mime = mimeOf(fetched.contentType);
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return 'html';
  if (mime === 'application/pdf' || fetched.body.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (mime.startsWith('text/') || mime === 'application/json' || mime.endsWith('+json')) return 'text';
  if (mime === '' || mime === 'application/octet-stream') {
    return /^\s*<(!doctype html|html|head|body)/i.test(fetched.body.subarray(0, 512).toString('latin1'))
      ? 'html'
      : 'other';
  }
  return 'other';
}

function mimeOf(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

function statusReason(status: number): string {
  return `HTTP ${status}${STATUS_TEXT[status] ? ` ${STATUS_TEXT[status]}` : status >= 500 ? ' server error' : ''}`;
}

function titleFromUrl(url: string): string {
  const { hostname, pathname } = new URL(url);
  const raw = pathname.split('/').filter(Boolean).pop() ?? '';
  let last = raw;
  try {
    last = decodeURIComponent(raw);
  } catch {
    // A malformed escape is still a usable title as it is.
  }
  return last ? `${last} (${hostname})` : hostname;
}
