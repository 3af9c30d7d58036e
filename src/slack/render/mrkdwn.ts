/**
 * Markdown (as the model writes it) to Slack mrkdwn. Everything that comes
 * from the model or a web page goes through here, so this is also where it is
 * made harmless: `&`, `<` and `>` are escaped everywhere (code included, as
 * Slack requires), which turns `<!channel>`, `<!here>`, `<@U…>` and
 * `<!subteam^…>` into visible text that pings nobody; plain `@channel`,
 * `@here` and `@everyone` get a zero-width space. Only links we build
 * ourselves come out as `<url|label>`.
 */

/** Source number → link target, for citations; undefined leaves `[n]` as plain text (knowledge-base sources). */
export type CitationLink = (n: number) => string | undefined;

export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Untrusted plain text for a mrkdwn field: escaped and unable to ping anyone. */
export function safeText(text: string): string {
  return defang(escapeMrkdwn(text));
}

function defang(text: string): string {
  return text.replace(/@(channel|here|everyone)\b/gi, '@\u200b$1');
}

/** A link Slack will render; `|` and `>` cannot appear in a label, nor spaces or `>` in the URL. */
export function mrkdwnLink(url: string, label: string): string {
  const safeUrl = url
    .replace(/&/g, '&amp;')
    .replace(/</g, '%3C')
    .replace(/>/g, '%3E')
    .replace(/\|/g, '%7C')
    .replace(/ /g, '%20');
  const safeLabel = safeText(label).replace(/\|/g, '¦');
  return `<${safeUrl}|${safeLabel}>`;
}

export function markdownToMrkdwn(markdown: string, citation: CitationLink = () => undefined): string {
  const out: string[] = [];
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fenceMark = /^\s*(```+|~~~+)/.exec(line);
    if (fence) {
      if (fenceMark && fenceMark[1]!.startsWith(fence)) {
        out.push('```');
        fence = null;
      } else out.push(escapeMrkdwn(line));
      continue;
    }
    if (fenceMark) {
      fence = fenceMark[1]!;
      out.push('```');
      continue;
    }
    if (/^\s*\|.*\|\s*$/.test(line)) {
      const rows: string[] = [];
      while (i < lines.length && /^\s*\|.*\|\s*$/.test(lines[i]!)) rows.push(lines[i++]!);
      i--;
      out.push(...table(rows, citation));
      continue;
    }
    out.push(blockLine(line, citation));
  }
  if (fence) out.push('```');
  return out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function blockLine(line: string, citation: CitationLink): string {
  const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
  if (heading) return `*${inline(heading[1]!.replace(/\*\*|__/g, ''), citation)}*`;
  if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) return '───';
  const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(line);
  if (bullet) {
    const depth = Math.floor(bullet[1]!.replace(/\t/g, '    ').length / 2);
    return `${'    '.repeat(depth)}${depth ? '◦' : '•'} ${inline(bullet[2]!, citation)}`;
  }
  const quote = /^\s*>\s?(.*)$/.exec(line);
  if (quote) return `> ${inline(quote[1]!, citation)}`;
  return inline(line, citation);
}

/** Tables become one line per row so citations inside them stay links; the header row is bold. */
function table(rows: string[], citation: CitationLink): string[] {
  const cells = (row: string) =>
    row
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((c) => c.trim());
  const body = rows.filter((r) => !/^\s*\|?\s*:?-{2,}/.test(r));
  return body.map((row, i) => {
    const parts = cells(row).map((c) => inline(c, citation));
    return i === 0 && rows.length > 1 && /^\s*\|?\s*:?-{2,}/.test(rows[1]!)
      ? parts.map((p) => (p ? `*${p.replace(/\*/g, '')}*` : p)).join(' · ')
      : `• ${parts.join(' · ')}`;
  });
}

const PLACEHOLDER = /\uE000(\d+)\uE001/g;

/** Inline Markdown on one line: code spans kept, links and citations built by us, emphasis converted. */
function inline(text: string, citation: CitationLink): string {
  const kept: string[] = [];
  const keep = (value: string) => `\uE000${kept.push(value) - 1}\uE001`;
  let working = text.replace(/[\uE000\uE001]/g, '');
  working = working.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (_m, ticks: string, code: string) =>
    keep(`${ticks}${escapeMrkdwn(code)}${ticks}`),
  );
  working = working.replace(
    /!?\[([^\]]+)\]\((https?:\/\/[^\s)]+(?:\([^\s)]*\)[^\s)]*)*)\)/g,
    (_m, label: string, url: string) => keep(mrkdwnLink(url, label.replace(/\*\*|__/g, ''))),
  );
  // [1], [1, 2], [[3]] and the full-width forms have been normalised by the engine to [n] / [n, m].
  working = working.replace(/\[(\d+(?:\s*,\s*\d+)*)\]/g, (_m, list: string) =>
    keep(
      list
        .split(',')
        .map((part) => {
          const n = Number(part.trim());
          const url = citation(n);
          return url ? mrkdwnLink(url, `[${n}]`) : `[${n}]`;
        })
        .join(''),
    ),
  );
  working = working.replace(/<(https?:\/\/[^\s>]+)>/g, (_m, url: string) => keep(mrkdwnLink(url, url)));
  working = safeText(working);
  working = working
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '\uE002$2\uE002')
    .replace(/(^|[^\w*])\*(?=\S)([^*]*?\S)\*(?!\w)/g, '$1_$2_')
    .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '~$1~')
    .replace(/\uE002/g, '*');
  return working.replace(PLACEHOLDER, (_m, i: string) => kept[Number(i)]!);
}
