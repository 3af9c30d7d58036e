import { canonicalUrl } from '../sources/canonical-url.js';

const LINK =
  /(!?)\[([^\]\n]*)\]\(\s*<?(https?:\/\/[^\s()>]+(?:\([^\s()]*\)[^\s()>]*)*)>?(?:\s+"[^"\n]*")?\s*\)/g;
const AUTOLINK = /<(https?:\/\/[^\s>]+)>/g;
const BARE = /(?<![<\w/])https?:\/\/[^\s<>()[\]]+(?:\([^\s<>()]*\)[^\s<>()[\]]*)*/g;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const CODE_SPAN = /(`+)[\s\S]*?\1/g;

/**
 * Keeps a link in the report live only when it points at one of the
 * session's sources; any other link (one a page's prompt injection talked the
 * model into, say) becomes its label and its domain as plain text, so nobody
 * is one click away from an address nobody researched. Code is left alone.
 */
export function confineLinks(markdown: string, sourceUrls: Iterable<string>): string {
  const allowed = new Set<string>();
  for (const url of sourceUrls) {
    const key = canonicalUrl(url);
    if (key) allowed.add(key);
  }
  const isSource = (url: string) => {
    const key = canonicalUrl(url);
    return key !== null && allowed.has(key);
  };
  const lines = markdown.split('\n');
  let fence: string | null = null;
  return lines
    .map((line) => {
      const marker = FENCE.exec(line)?.[1];
      if (fence !== null) {
        if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker)
          fence = null;
        return line;
      }
      if (marker) {
        fence = marker;
        return line;
      }
      return outsideCode(line, (text) => confineText(text, isSource));
    })
    .join('\n');
}

function confineText(text: string, isSource: (url: string) => boolean): string {
  return text
    .replace(LINK, (whole, _image: string, label: string, url: string) => {
      if (isSource(url)) return whole;
      const name = label.trim();
      return name ? `${name} (${domain(url)})` : domain(url);
    })
    .replace(AUTOLINK, (whole, url: string) => (isSource(url) ? whole : domain(url)))
    .replace(BARE, (url: string, offset: number, all: string) => {
      // Inside a kept Markdown link's target: leave it.
      if (all.slice(Math.max(0, offset - 2), offset) === '](') return url;
      return isSource(url) ? url : domain(url);
    });
}

/** Applies `change` to the parts of one line outside inline code spans. */
function outsideCode(line: string, change: (text: string) => string): string {
  let out = '';
  let last = 0;
  for (const match of line.matchAll(CODE_SPAN)) {
    out += change(line.slice(last, match.index)) + match[0];
    last = match.index + match[0].length;
  }
  return out + change(line.slice(last));
}

function domain(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return 'a link';
  }
}
