import { describe, expect, it } from 'vitest';
import { markdownToMrkdwn, mrkdwnLink, safeText } from '../../../src/slack/render/mrkdwn.js';
import { splitMrkdwn } from '../../../src/slack/render/split-mrkdwn.js';

const links: Record<number, string> = {
  1: 'https://e.com/(USA)%20Card(s).pdf',
  2: 'https://b.org/x?a=1&b=2',
};
const convert = (md: string) => markdownToMrkdwn(md, (n) => links[n]);

describe('markdownToMrkdwn', () => {
  it('converts headings, emphasis, lists, quotes and links', () => {
    expect(
      convert(
        '## Findings\n\nHeat pumps are **efficient** and *quiet*, see [the study](https://x.org/a).\n\n- one\n  - nested\n> quoted ~~old~~',
      ),
    ).toBe(
      '*Findings*\n\nHeat pumps are *efficient* and _quiet_, see <https://x.org/a|the study>.\n\n• one\n    ◦ nested\n> quoted ~old~',
    );
  });

  it('turns citations into links to their sources and leaves sources without a URL as plain numbers', () => {
    expect(convert('Costs fell [1]. Both agree [1, 2]. Internal memo [3].')).toBe(
      'Costs fell <https://e.com/(USA)%20Card(s).pdf|[1]>. Both agree <https://e.com/(USA)%20Card(s).pdf|[1]><https://b.org/x?a=1&amp;b=2|[2]>. Internal memo [3].',
    );
  });

  it('neutralises every way model or page text could ping people', () => {
    const hostile =
      'Attention <!channel> and <!here|here> and <!everyone>, ping <@U123> and <@W999|bob>, team <!subteam^S0123|@devs>, plain @here @channel @everyone';
    const out = convert(hostile);
    expect(out).not.toMatch(/<[!@]/);
    expect(out).toContain('&lt;!channel&gt;');
    expect(out).toContain('&lt;@U123&gt;');
    expect(out).toContain('@\u200bhere');
    expect(out).toContain('@\u200bchannel');
    expect(out).toContain('@\u200beveryone');
    expect(safeText('<!channel> & <@U1>')).toBe('&lt;!channel&gt; &amp; &lt;@U1&gt;');
  });

  it('keeps code as it is (escaped the way Slack needs) and never converts markup inside it', () => {
    expect(convert('Use `a <b> **c**` here.\n\n```ts\nif (a < b && **x**) {}\n\n// <!channel>\n```')).toBe(
      'Use `a &lt;b&gt; **c**` here.\n\n```\nif (a &lt; b &amp;&amp; **x**) {}\n\n// &lt;!channel&gt;\n```',
    );
  });

  it('renders tables as one line per row so cited cells stay links', () => {
    expect(convert('| Option | Cost |\n|---|---:|\n| A | 10 [1] |\n| B | 12 |')).toBe(
      '*Option* · *Cost*\n• A · 10 <https://e.com/(USA)%20Card(s).pdf|[1]>\n• B · 12',
    );
  });

  it('builds links that cannot break out of their brackets', () => {
    expect(mrkdwnLink('https://x.org/a|b>c', 'Title | with > marks <!here>')).toBe(
      '<https://x.org/a%7Cb%3Ec|Title ¦ with &gt; marks &lt;!here&gt;>',
    );
  });
});

describe('splitMrkdwn', () => {
  it('splits a long text into messages of sections within every limit, losing nothing', () => {
    const paragraphs = Array.from({ length: 60 }, (_, i) =>
      i % 10 === 0
        ? `*Section ${i / 10}*`
        : `Paragraph ${i}: ${'lorem ipsum dolor sit amet '.repeat(30).trim()}.`,
    );
    const text = paragraphs.join('\n\n');
    const messages = splitMrkdwn(text);
    expect(messages.length).toBeGreaterThan(3);
    for (const message of messages) {
      expect(message.length).toBeLessThanOrEqual(45);
      expect(message.join('').length).toBeLessThanOrEqual(10_000);
      for (const section of message) expect(section.length).toBeLessThanOrEqual(2_900);
    }
    const words = (s: string) => s.split(/\s+/).filter(Boolean);
    expect(words(messages.flat().join('\n\n'))).toEqual(words(text));
  });

  it('cuts an over-long paragraph at spaces but never inside a link, and reopens a cut code block', () => {
    const link = '<https://example.com/a-very-long-path|a label with many words in it>';
    const paragraph = Array.from({ length: 200 }, (_, i) => (i % 20 === 0 ? link : `word${i}`)).join(' ');
    const sections = splitMrkdwn(paragraph, { section: 300, message: 10_000, blocks: 45 }).flat();
    for (const s of sections) {
      expect(s.length).toBeLessThanOrEqual(300);
      expect((s.match(/</g) ?? []).length).toBe((s.match(/>/g) ?? []).length);
    }
    const code = `\`\`\`\n${Array.from({ length: 80 }, (_, i) => `line ${i} of code`).join('\n')}\n\`\`\``;
    const pieces = splitMrkdwn(code, { section: 400, message: 10_000, blocks: 45 }).flat();
    expect(pieces.length).toBeGreaterThan(1);
    for (const p of pieces) expect(p.startsWith('```\n') && p.endsWith('\n```')).toBe(true);
  });
});
