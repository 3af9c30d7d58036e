const TRACKING_PARAMS = new Set([
  'gclid',
  'gclsrc',
  'dclid',
  'fbclid',
  'msclkid',
  'yclid',
  'igshid',
  'mc_cid',
  'mc_eid',
  '_hsenc',
  '_hsmi',
  'mkt_tok',
  'ref_src',
  'spm',
]);

/**
 * The identity of a web page for dedup: no credentials, no fragment, no
 * tracking parameters, no default port, no trailing slash. Returns null for anything that is not
 * an absolute http(s) URL.
 */
export function canonicalUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  // Credentials are never part of a page's identity, and must not reach a report.
  url.username = '';
  url.password = '';
  for (const key of [...url.searchParams.keys()]) {
    if (key.toLowerCase().startsWith('utm_') || TRACKING_PARAMS.has(key.toLowerCase())) {
      url.searchParams.delete(key);
    }
  }
  if (url.pathname.length > 1 && url.pathname.endsWith('/')) {
    url.pathname = url.pathname.replace(/\/+$/, '');
  }
  const text = url.toString();
  return url.search === '' && text.endsWith('?') ? text.slice(0, -1) : text;
}

/** `example.com/articles/…` for progress lines. */
export function shortUrl(raw: string, max = 48): string {
  try {
    const url = new URL(raw);
    const text = url.host.replace(/^www\./, '') + (url.pathname === '/' ? '' : url.pathname);
    return text.length > max ? `${text.slice(0, max - 1)}…` : text;
  } catch {
    return raw.slice(0, max);
  }
}
