import { withDeadline } from '../../engine/deadline-signal.js';
import type { PageReader, PageResult } from '../../ports/page-reader.js';
import { decodeText } from '../extract/decode-text.js';
import { extractHtml } from '../extract/extract-html.js';
import { extractPdf } from '../extract/extract-pdf.js';
import { type ExtractedText, tidyText } from '../extract/extracted-text.js';
import { botChallenge } from './bot-challenge.js';
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
 * `open_url`: fetch behind the SSRF guard, then HTML through Readability,
 * PDF through pdf.js, plain text, Markdown and JSON as they are. Every
 * ordinary failure is a value with a reason the model can act on.
 */
export class HttpPageReader implements PageReader {
  private readonly fetcher: PageFetcher;

  private readonly deadlineMs: number;

  /** `deadlineMs`: one page read, however slowly the server trickles it, ends after this (default 30 s). */
  constructor(options: Partial<PageFetcherOptions> & { resolve?: Resolve; deadlineMs?: number } = {}) {
    this.fetcher = new PageFetcher({ ...PAGE_READER_DEFAULTS, ...options });
    this.deadlineMs = options.deadlineMs ?? 30_000;
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
    try {
      return await this.extract(fetched);
    } catch (error) {
      return {
        ok: false,
        reason: `could not extract text (${(error as Error).message})`,
        kind: 'unreadable',
      };
    }
  }

  close(): void {
    this.fetcher.close();
  }

  private async extract(fetched: FetchedPage): Promise<PageResult> {
    const kind = contentKind(fetched);
    const failed = fetched.status >= 400;
    if (kind === 'html') {
      const html = decodeText(fetched.body, fetched.contentType, true);
      const page = extractHtml(html);
      const vendor = botChallenge(html, fetched.headers, page.text.length);
      if (vendor) return { ok: false, reason: `blocked by a bot check (${vendor})`, kind: 'bot_check' };
      if (failed) return { ok: false, reason: statusReason(fetched.status), kind: 'http_error' };
      return done(fetched.url, page);
    }
    if (failed) return { ok: false, reason: statusReason(fetched.status), kind: 'http_error' };
    if (kind === 'pdf') return done(fetched.url, await extractPdf(fetched.body));
    if (kind === 'text') {
      const text = decodeText(fetched.body, fetched.contentType, false);
      return done(fetched.url, { title: titleOfText(text), text: tidyText(text) });
    }
    return {
      ok: false,
      reason: `unsupported content type (${mimeOf(fetched.contentType) || 'unknown'})`,
      kind: 'unreadable',
    };
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

/** A Markdown file's first heading, else nothing (the URL supplies a title). */
function titleOfText(text: string): string {
  return /^#\s+(.+)$/m.exec(text.slice(0, 2000))?.[1]?.trim() ?? '';
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
