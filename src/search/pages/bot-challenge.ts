import type { IncomingHttpHeaders } from 'node:http';

/** Markers that only appear on interstitial "are you human" pages. */
const STRONG: [RegExp, string][] = [
  [/<title>\s*just a moment\.\.\.\s*<\/title>/i, 'Cloudflare'],
  [/\/cdn-cgi\/challenge-platform\//i, 'Cloudflare'],
  [/verifying you are human/i, 'Cloudflare'],
  [/<title>\s*attention required! \| cloudflare\s*<\/title>/i, 'Cloudflare'],
  [/geo\.captcha-delivery\.com|ct\.captcha-delivery\.com/i, 'DataDome'],
  [/id=["']px-captcha["']|press (?:&amp;|&) hold to confirm you are a human/i, 'PerimeterX'],
  [/errors\.edgesuite\.net/i, 'Akamai'],
];
/** Markers real pages may carry too (a Turnstile-protected comment form), so they count only on a near-empty page. */
const WEAK: [RegExp, string][] = [
  [/challenges\.cloudflare\.com\/turnstile/i, 'Cloudflare'],
  [/captcha-delivery\.com/i, 'DataDome'],
  [/enable javascript and cookies to continue/i, 'a bot check'],
];

/**
 * The vendor of the bot check this response is, or undefined for a real page.
 * `readableChars` is how much text extraction found: challenge pages have almost none.
 */
export function botChallenge(
  html: string,
  headers: IncomingHttpHeaders,
  readableChars: number,
): string | undefined {
  if (String(headers['cf-mitigated'] ?? '').toLowerCase() === 'challenge') return 'Cloudflare';
  for (const [pattern, vendor] of STRONG) if (pattern.test(html)) return vendor;
  if (readableChars >= 500) return undefined;
  for (const [pattern, vendor] of WEAK) if (pattern.test(html)) return vendor;
  return undefined;
}
