import pLimit from 'p-limit';
import { canonicalUrl } from '../../ports/canonical-url.js';
import type { SessionContext } from '../session-context.js';
import { ANSWER_KEY, keepSource, keptSource } from './keep-source.js';

/** Cited pages read at once, and the most read for one answer (the rest stay cited, checked on the answer alone). */
const PARALLEL_READS = 6;
const MOST_READ = 40;

/** A cited link as read: where it led, and the page's text when it could be read. */
export interface CitedPage {
  url: string;
  title?: string;
  text?: string;
  /** Past the most read for one answer: not tried. */
  notRead?: true;
}

export interface CitedPages {
  /** Each link as read, or null when it could not be followed. */
  found: Map<string, CitedPage | null>;
  /** The text of each page read, by its source key: what the claim check compares the report with. */
  texts: Map<string, string>;
  /** Links that could not be followed. */
  unresolved: number;
  /** Pages that could not be read. */
  unread: number;
}

/**
 * The pages a hosted backend's answer cites, read through the session's page
 * reader (the same guard as `open_url`: public addresses only, size and time
 * limits), so the claim check compares the report with the page and not with
 * the hosted model's words about it. `resolve` turns a link into the page's
 * address first (null: it cannot be followed, and the link is left out).
 */
export async function readCitedPages(
  ctx: SessionContext,
  links: string[],
  resolve: (link: string) => Promise<string | null> = async (link) => link,
): Promise<CitedPages> {
  const limit = pLimit(PARALLEL_READS);
  let reads = 0;
  const found = new Map<string, CitedPage | null>();
  await Promise.all(
    [...new Set(links)].map((link) =>
      limit(async () => {
        const url = await resolve(link);
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
  return { found, texts, unresolved, unread };
}

/**
 * A hosted answer's cited sources, kept as the pages say them: each page not
 * kept before is read, and kept; one that cannot be read keeps the answer
 * itself, marked as such (ANSWER_KEY), so the check says those citations
 * were checked against the hosted answer only.
 */
export async function keepCitedPages(ctx: SessionContext, numbers: number[], answer: string): Promise<void> {
  const sources = [];
  for (const n of numbers) {
    const source = ctx.sources.get(n);
    if (source?.url && !(await keptSource(ctx, source.key))) sources.push(source);
  }
  const read = await readCitedPages(
    ctx,
    sources.map((s) => s.url!),
  );
  const { usage } = ctx.state;
  usage.pagesRead += read.texts.size;
  usage.pagesFailed = (usage.pagesFailed ?? 0) + read.unread;
  await Promise.all(
    sources.map((source) => {
      const page = read.texts.get(source.key);
      return page
        ? keepSource(ctx, source, page)
        : keepSource(ctx, { ...source, key: ANSWER_KEY + source.key }, answer);
    }),
  );
}
