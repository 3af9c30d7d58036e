/** Slack's limits for one message, with a margin below the values where Slack starts refusing. */
export const SLACK_LIMITS = {
  /** Top-level `text` (Slack refuses near 4,000 in chat.update). */
  text: 3_900,
  /** One section block's text (3,000). */
  section: 2_900,
  /** All block text in one message (refused from about 11-13k). */
  messageBlocks: 10_000,
  /** Blocks per message (50), leaving room for a heading or context block. */
  blocks: 45,
} as const;

/**
 * Splits mrkdwn into messages of sections without losing a character:
 * at blank lines first (paragraphs, lists, code blocks kept whole when they
 * fit), then at line ends, then at spaces outside `<link|labels>`; a code
 * block cut in two is closed and reopened. A message that is already well
 * filled ends before a heading, so sections tend to start messages.
 */
export function splitMrkdwn(
  text: string,
  limits: { section: number; message: number; blocks: number } = {
    section: SLACK_LIMITS.section,
    message: SLACK_LIMITS.messageBlocks,
    blocks: SLACK_LIMITS.blocks,
  },
): string[][] {
  const sections: string[] = [];
  let current = '';
  for (const unit of units(shortenLongLinks(text, limits.section))) {
    for (const piece of pieces(unit, limits.section)) {
      const joined = current ? `${current}\n\n${piece}` : piece;
      if (joined.length <= limits.section) current = joined;
      else {
        sections.push(current);
        current = piece;
      }
    }
  }
  if (current) sections.push(current);

  const messages: string[][] = [];
  let message: string[] = [];
  let size = 0;
  for (const section of sections) {
    const full = size + section.length > limits.message || message.length >= limits.blocks;
    const headingBreak = size > limits.message * 0.6 && isHeading(section);
    if (message.length > 0 && (full || headingBreak)) {
      messages.push(message);
      message = [];
      size = 0;
    }
    message.push(section);
    size += section.length;
  }
  if (message.length) messages.push(message);
  return messages;
}

function isHeading(section: string): boolean {
  return /^\*[^*\n]+\*\n/.test(section) || /^\*[^*\n]+\*$/.test(section);
}

/** Paragraphs, with fenced code blocks as single units even when they contain blank lines. */
function units(text: string): string[] {
  const out: string[] = [];
  let buffer: string[] = [];
  let inFence = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) inFence = !inFence;
    if (!inFence && line.trim() === '' && !line.startsWith('```')) {
      if (buffer.length) out.push(buffer.join('\n'));
      buffer = [];
      continue;
    }
    buffer.push(line);
  }
  if (buffer.length) out.push(buffer.join('\n'));
  return out.filter((u) => u.trim());
}

/** One unit cut into pieces no longer than `max`. */
function pieces(unit: string, max: number): string[] {
  if (unit.length <= max) return [unit];
  const fenced = unit.startsWith('```') && unit.endsWith('```');
  if (fenced) {
    // Reserve room for the fences added to each piece.
    const body = unit.slice(3, -3).replace(/^\n|\n$/g, '');
    return cut(body, max - 8, '\n')
      .flatMap((piece) => (piece.length <= max - 8 ? [piece] : cut(piece, max - 8, ' ')))
      .map((piece) => `\`\`\`\n${piece}\n\`\`\``);
  }
  return cut(unit, max, '\n').flatMap((piece) => (piece.length <= max ? [piece] : cut(piece, max, ' ')));
}

/**
 * Greedy cut at `separator`, never inside `<…>`. A line longer than `max` is
 * left whole for the cut at spaces; a word longer than `max` is cut where it
 * breaks nothing Slack shows (`safeEnd`).
 */
function cut(text: string, max: number, separator: string): string[] {
  const tokens = tokenize(text, separator);
  const out: string[] = [];
  let current = '';
  for (const token of tokens) {
    const joined = current ? `${current}${separator}${token}` : token;
    if (joined.length <= max) {
      current = joined;
      continue;
    }
    if (current) out.push(current);
    current = token;
    while (separator === ' ' && current.length > max) {
      const end = safeEnd(current, max);
      out.push(current.slice(0, end));
      current = current.slice(end);
    }
  }
  if (current) out.push(current);
  return out;
}

/** A link token too long for any section becomes its label (Slack could not show it anyway). */
function shortenLongLinks(text: string, max: number): string {
  return text.replace(/<([^<>|]*)\|([^<>]*)>/g, (token, _url: string, label: string) =>
    token.length > max ? label : token,
  );
}

/**
 * Where to cut a run longer than `max` that has no space: at or before `max`,
 * never inside a `<…>` token, an `&…;` entity or a surrogate pair.
 */
function safeEnd(text: string, max: number): number {
  let end = max;
  const open = text.lastIndexOf('<', end - 1);
  if (open > 0 && text.indexOf('>', open) >= end) end = open;
  const amp = text.lastIndexOf('&', end - 1);
  if (amp > 0 && end - amp < 10 && /^&(?:#\d+|#x[\da-f]+|[a-z]+);/i.test(text.slice(amp, amp + 12))) {
    const close = text.indexOf(';', amp);
    if (close >= end) end = amp;
  }
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return end > 0 ? end : max;
}

function tokenize(text: string, separator: string): string[] {
  if (separator === '\n') return text.split('\n');
  const tokens: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '<') depth++;
    else if (c === '>' && depth > 0) depth--;
    else if (c === ' ' && depth === 0) {
      tokens.push(text.slice(start, i));
      start = i + 1;
    }
  }
  tokens.push(text.slice(start));
  return tokens;
}
