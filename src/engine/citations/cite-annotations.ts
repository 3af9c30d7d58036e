import { canonicalUrl } from '../../ports/canonical-url.js';
import type { HostedCitation } from '../../ports/deep-research-api.js';
import type { SourceRegistry } from '../sources/source-registry.js';

/**
 * A hosted answer with its `url_citation` annotations as the session's
 * citation numbers: each cited URL becomes a source (one number per
 * canonical URL across tasks and versions), and each cited span ends with
 * `[n]`. A span that is itself the link (`([Reuters](https://…))`) is
 * replaced by the number; otherwise the number follows the cited words.
 */
export function citeAnnotations(
  text: string,
  citations: HostedCitation[],
  sources: SourceRegistry,
): { text: string; cited: number[] } {
  const cited = new Set<number>();
  const numbered = citations.flatMap((c) => {
    const key = canonicalUrl(c.url);
    if (!key || c.start < 0 || c.end > text.length || c.start > c.end) return [];
    const source = sources.add({ kind: 'web', key, title: c.title || key, url: c.url, snippet: '' });
    cited.add(source.n);
    return [{ ...c, n: source.n }];
  });
  let out = text;
  // From the end, so earlier offsets stay valid.
  for (const c of [...numbered].sort((a, b) => b.start - a.start || b.end - a.end)) {
    const span = out.slice(c.start, c.end);
    const isLink = span.includes(c.url) || /^\(?\[[^\]]*\]\([^)]*\)\)?$/.test(span.trim());
    out = isLink
      ? `${out.slice(0, c.start)}[${c.n}]${out.slice(c.end)}`
      : `${out.slice(0, c.end)} [${c.n}]${out.slice(c.end)}`;
  }
  // A replaced link may leave a doubled space before its number.
  return { text: out.replace(/ {2,}\[(\d+)\]/g, ' [$1]'), cited: [...cited] };
}
