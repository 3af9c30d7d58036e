import type { SessionContext } from '../../engine/session-context.js';
import { type CitedPages, readCitedPages } from '../../engine/sources/read-cited-pages.js';
import type { InteractionCitation } from './interaction-view.js';

/** How long following one grounding link may take. */
const RESOLVE_MS = 15_000;
const GOOGLE_REDIRECTS = 'https://vertexaisearch.cloud.google.com';

export interface GroundedPages extends CitedPages {
  /** The citations with each link the real page's address (and its title when it was read). */
  citations: InteractionCitation[];
}

/**
 * Gemini cites Google's grounding redirects
 * (`vertexaisearch.cloud.google.com/grounding-api-redirect/…`), not the
 * pages: each is followed one hop, without sending anything of ours, to the
 * address it redirects to; that page is then read (readCitedPages). Only
 * links on Google's redirect host (or on the configured API's own origin, a
 * test fake) are followed; any other link is read as it is.
 */
export async function readGroundedPages(
  ctx: SessionContext,
  citations: InteractionCitation[],
  apiBaseURL: string,
): Promise<GroundedPages> {
  const hosts = [GOOGLE_REDIRECTS, new URL(apiBaseURL).origin];
  const read = await readCitedPages(
    ctx,
    citations.map((c) => c.url),
    async (link) => (isRedirect(link, hosts) ? follow(link, ctx.cancel) : link),
  );
  return {
    ...read,
    citations: citations.flatMap((c) => {
      const page = read.found.get(c.url);
      return page ? [{ ...c, url: page.url, title: page.title || c.title }] : [];
    }),
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
