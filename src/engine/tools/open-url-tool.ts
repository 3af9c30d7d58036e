import { z } from 'zod';
import { canonicalUrl, shortUrl } from '../../ports/canonical-url.js';
import type { PageResult } from '../../ports/page-reader.js';
import { type SessionContext, untilDeadline } from '../session-context.js';
import { LIMITS } from '../settings.js';
import { keepSource, keptSource } from '../sources/keep-source.js';
import { defineTool } from './define-tool.js';
import { textList } from './normalize-queries.js';
import { textWindow } from './text-window.js';
import { errorText, formatDocuments, type ResultDocument, type ToolOutcome } from './tool-result.js';

export const openUrlTool = defineTool({
  name: 'open_url',
  description:
    'Read the full text of web pages, for example promising search results. Up to 10 URLs per call.',
  input: z.object({ urls: textList('Absolute http(s) URLs to read.', 'give at least one URL') }),
  isEnabled: (ctx, role) => role === 'agent' && Boolean(ctx.deps.pageReader),
  budgeted: true,
  execute({ urls }, { ctx, until, activity }) {
    activity({ kind: 'reading', urls: urls.map((u) => shortUrl(u)) });
    return runOpenUrl(ctx, urls, until);
  },
});

/**
 * Reads pages. A page already read in this session is served from the
 * session's cache; each page is cut to a window around the snippet that led
 * here, and the whole call to a total character budget.
 */
export async function runOpenUrl(ctx: SessionContext, urls: string[], until: number): Promise<ToolOutcome> {
  const reader = ctx.deps.pageReader;
  if (!reader) return { content: 'Error: reading pages is not available in this session.', shown: [] };
  const failures: string[] = [];
  const notes: string[] = [];
  const targets = new Map<string, string>();
  for (const raw of urls) {
    const key = canonicalUrl(raw);
    if (!key) failures.push(`${raw} (not an absolute http(s) URL)`);
    else if (!targets.has(key)) targets.set(key, raw);
  }
  const selected = [...targets].slice(0, LIMITS.urlsPerCall);
  if (targets.size > selected.length) {
    notes.push(`Only the first ${LIMITS.urlsPerCall} URLs were read; ask for the others in another call.`);
  }
  const stop = Math.min(until, ctx.deps.clock.now() + ctx.settings.toolTimeoutMs);
  const pages = await Promise.all(selected.map(([key, raw]) => cachedRead(ctx, key, raw, stop)));

  const docs: ResultDocument[] = [];
  const kept: Promise<void>[] = [];
  let budget = LIMITS.charsPerCall;
  selected.forEach(([key, raw], i) => {
    const result = pages[i]!;
    if (!result.ok) {
      failures.push(`${raw} (${result.reason})`);
      return;
    }
    const { page } = result;
    if (budget <= 0) {
      notes.push(`${raw} was read but left out: this call's ${LIMITS.charsPerCall} characters are used up.`);
      return;
    }
    const known = ctx.sources.byKey(key);
    const source = ctx.sources.add({
      kind: 'web',
      key,
      url: key,
      title: page.title.trim(),
      snippet: known?.snippet ?? page.text.slice(0, 300),
      author: page.author,
      publishedAt: page.publishedAt,
    });
    const content = textWindow(page.text, known?.snippet, Math.min(LIMITS.charsPerPage, budget));
    budget -= content.length;
    docs.push({ source, content });
    kept.push(keepSource(ctx, source, page.text));
  });
  await Promise.all(kept);
  if (docs.length === 0 && failures.length > 0) {
    return { content: `Failed to fetch content from ${failures.join(', ')}`, shown: [] };
  }
  const shown = docs.map((d) => d.source.n);
  return { content: formatDocuments(docs, failures, notes), shown, read: shown };
}

function cachedRead(ctx: SessionContext, key: string, url: string, stop: number): Promise<PageResult> {
  if (ctx.state.earlierReads?.includes(key) && !ctx.pageCache.has(key)) {
    const reason =
      'already read by an earlier version of this research; its findings are in the reports above';
    return Promise.resolve({ ok: false, reason, kind: 'already_read' });
  }
  let pending = ctx.pageCache.get(key);
  if (!pending) {
    pending = readPage(ctx, key, url, stop);
    ctx.pageCache.set(key, pending);
  }
  return pending;
}

/** One read of a page; the usage counts it as read only when it gave readable text. */
async function readPage(ctx: SessionContext, key: string, url: string, stop: number): Promise<PageResult> {
  // Read before this session resumed: its kept text, without a fetch (a page never read is not looked up).
  const stored = ctx.state.readUrls.includes(key) ? await keptSource(ctx, key) : null;
  if (stored) return { ok: true, page: { url: stored.url ?? key, title: stored.title, text: stored.text } };
  let result: PageResult;
  try {
    result = await untilDeadline(ctx, stop, (signal) => ctx.deps.pageReader!.read(url, { signal }));
  } catch (error) {
    ctx.log.warn({ err: error, url }, 'reading a page failed');
    result =
      ctx.deps.clock.now() >= stop
        ? { ok: false, reason: 'timed out', kind: 'timeout' }
        : { ok: false, reason: errorText(error), kind: 'failed' };
  }
  if (result.ok && !readable(result.page.text))
    result = { ok: false, reason: 'no readable content', kind: 'unreadable' };
  const { usage } = ctx.state;
  if (result.ok) usage.pagesRead += 1;
  else usage.pagesFailed = (usage.pagesFailed ?? 0) + 1;
  if (result.ok) {
    if (!ctx.state.readUrls.includes(key)) ctx.state.readUrls.push(key);
  } else {
    // Failures are not cached: the next agent may have better luck.
    ctx.pageCache.delete(key);
  }
  return result;
}

const readable = (text: string) =>
  text.trim().length >= LIMITS.minPageChars && !/^\s*loading\.*\s*$/i.test(text);
