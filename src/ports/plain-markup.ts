const USER = /<@([UW][A-Z0-9]+)(?:\|([^>]*))?>/g;

/**
 * Slack's markup as plain words, the one neutralisation for whatever text
 * others wrote that the product repeats (thread messages, file names, page and
 * MCP result titles, authors): `<@U1>` → `@Ann`, `<!here>` → `@-here`,
 * `<!subteam^S1|@ops>` → `@-ops`, `<#C1|general>` → `#general`, links →
 * `label (url)`, and a typed `@channel` → `@-channel`. Repeated anywhere (a
 * message, a canvas, report.md), it pings no one and links nowhere.
 */
export function plainMarkup(
  text: string,
  nameOf: (user: string) => string | undefined = () => undefined,
): string {
  return text
    .replace(
      USER,
      (_, user: string, label?: string) => `@${nameOf(user) ?? label?.replace(/^@/, '') ?? 'someone'}`,
    )
    .replace(/<!(channel|here|everyone)(?:\|[^>]*)?>/g, '@-$1')
    .replace(/<!subteam\^[A-Z0-9]+(?:\|([^>]*))?>/g, (_, label?: string) =>
      label ? `${label.replace(/^@/, '@-')}` : '@-group',
    )
    .replace(/<#[A-Z0-9]+(?:\|([^>]*))?>/g, (_, label?: string) => `#${label ?? 'channel'}`)
    .replace(/<((?:https?|mailto):[^|>]+)\|([^>]+)>/g, '$2 ($1)')
    .replace(/<((?:https?|mailto):[^>]+)>/g, '$1')
    .replace(/(^|[^\w@-])@(channel|here|everyone)\b/gi, '$1@-$2');
}

/** The users a text mentions (`<@U…>`), to look their names up before `plainMarkup`. */
export function mentionedUsers(text: string): string[] {
  return [...text.matchAll(USER)].map((m) => m[1]!);
}
