import pLimit from 'p-limit';
import type { SessionContext } from '../../engine/session-context.js';
import { canonicalUrl } from '../../ports/canonical-url.js';
import type { InteractionCitation } from './interaction-view.js';

/** Cited pages read at once, the most read per report (the rest stay cited, unchecked), and how long following one grounding link may take. */
const PARALLEL_READS = 6;
const MOST_READ = 40;
const RESOLVE_MS = 15_000;
const GOOGLE_REDIRECTS = 'https://vertexaisearch.cloud.google.com';

export interface CitedPages {
  /** The citations with each link the real page's address (and its title when it was read). */
  citations: InteractionCitation[];
  /** The text of each page read, by its source key: what the claim check compares the report with. */
  texts: Map<string, string>;
  /** Grounding links that could not be followed: their citations are left out. */
  unresolved: number;
  /** Pages that could not be read (still cited, checked on nothing). */
  unread: number;
}

/**
 * Gemini cites Google's grounding redirects
 * (`vertexaisearch.cloud.google.com/grounding-api-redirect/…`), not the
 * pages: each is followed one hop, without sending anything of ours, to the
 * address it redirects to; that page is then read through the page reader
 * (the same guard as `open_url`: public addresses only, size and time
 * limits). Only links on Google's redirect host (or on the configured API's
 * own origin, a test fake) are followed; any other link is read as it is.
 */
export async function readCitedPages(
  ctx: SessionContext,
  citations: InteractionCitation[],
  apiBaseURL: string,
): Promise<CitedPages> {
  const hosts = [GOOGLE_REDIRECTS, new URL(apiBaseURL).origin];
  const limit = pLimit(PARALLEL_READS);
  let reads = 0;
  const found = new Map<string, { url: string; title?: string; text?: string; notRead?: true } | null>();
  await Promise.all(
    [...new Set(citations.map((c) => c.url))].map((link) =>
      limit(async () => {
        const url = isRedirect(link, hosts) ? await follow(link, ctx.cancel) : link;
        if (!url) return found.set(link, null);
        if (++reads > MOST_READ) return found.set(link, { url, notRead: true });
        const read = await ctx.deps.pageReader?.read(url, { signal: ctx.cancel }).catch(() => undefined);
        return found.set(
          link,
          read?.ok ? { url: read.page.url, title: read.page.title, text: read.page.text } : { url },
        );
      }),
    ),
  );
  const texts = new Map<string, string>();
  let unresolved = 0;
  let unread = 0;
  for (const page of found.values()) {
    if (!page) unresolved += 1;
    else if (page.text === undefined && !page.notRead) unread += 1;
    const key = page?.text ? canonicalUrl(page.url) : null;
    if (key && page?.text) texts.set(key, page.text);
  }
  return {
    citations: citations.flatMap((c) => {
      const page = found.get(c.url);
      return page ? [{ ...c, url: page.url, title: page.title || c.title }] : [];
    }),
    texts,
    unresolved,
    unread,
  };
}

function isRedirect(link: string, hosts: string[]): boolean {
  if (!URL.canParse(link)) return false;
  const url = new URL(link);
  return hosts.includes(url.origin) && url.pathname.includes('/grounding-api-redirect/');
}

/** Where a grounding link redirects to (one hop, nothing of ours sent), or null. */
async function follow(link: string, cancel: AbortSignal): Promise<string | null> {
  try {
    const response = await fetch(link, {
      redirect: 'manual',
      signal: AbortSignal.any([cancel, AbortSignal.timeout(RESOLVE_MS)]),
    });
    await response.body?.cancel();
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) return null;
    const target = new URL(location, link);
    return target.protocol === 'https:' || target.protocol === 'http:' ? target.href : null;
  } catch {
    return null;
  }
}
