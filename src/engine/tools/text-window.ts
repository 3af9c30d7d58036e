const TRUNCATED = '[...truncated]';

/**
 * At most `size` characters of `text`, centred on where `snippet` occurs (the
 * search result that led the agent here), else from the start. Cut ends are
 * marked so the model knows the page goes on.
 */
export function textWindow(text: string, snippet: string | undefined, size: number): string {
  if (text.length <= size) return text;
  const at = snippet ? locate(text, snippet) : -1;
  let start = at === -1 ? 0 : Math.max(0, at - Math.floor(size / 2));
  start = Math.min(start, text.length - size);
  const end = start + size;
  return `${start > 0 ? `${TRUNCATED} ` : ''}${text.slice(start, end)}${end < text.length ? ` ${TRUNCATED}` : ''}`;
}

/** Finds a snippet's first words in the page, ignoring case and spacing differences. */
function locate(text: string, snippet: string): number {
  const words = snippet
    .replace(/\.\.\.|…/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 8);
  for (let n = words.length; n >= 3; n -= 2) {
    const pattern = words
      .slice(0, n)
      .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('\\s+');
    const match = new RegExp(pattern, 'i').exec(text);
    if (match) return match.index;
  }
  return -1;
}
