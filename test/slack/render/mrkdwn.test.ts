import { describe, expect, it } from 'vitest';
import { markdownToMrkdwn, mrkdwnLink, safeText } from '../../../src/slack/render/mrkdwn.js';
import { splitMrkdwn } from '../../../src/slack/render/split-mrkdwn.js';
import { SLACKIFY_CASES } from './slackify-cases.js';

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
      '*Findings*\n\nHeat pumps are *efficient* and _quiet_, see <https://x.org/a|the study>.\n\n• one\n    ◦ nested\n\n> quoted ~old~',
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
    // Footnote labels are model text too.
    expect(convert('Text[^<!channel>]\n\n[^<!channel>]: note')).not.toMatch(/<[!@]/);
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

describe('markdownToMrkdwn on the issue 13 cases', () => {
  it.each([
    [
      'a fence on a list-item line',
      '- ```python\n  x = arr[2]\n  ```\n- after **bold**',
      '•\n```\nx = arr[2]\n```\n• after *bold*',
    ],
    [
      'a fence in a blockquote',
      '> ```\n> x = 1\n> ```\n\nafter **bold**',
      '> ```\n> x = 1\n> ```\n\nafter *bold*',
    ],
    [
      'indented code',
      'Para.\n\n    code *x* [1]\n\nafter **bold**',
      'Para.\n\n```\ncode *x* [1]\n```\n\nafter *bold*',
    ],
    [
      'a ~~~ block holding a line of backticks',
      '~~~\n```\ninside\n~~~\n\nafter **bold**',
      '```\n\u200b```\ninside\n```\n\nafter *bold*',
    ],
    [
      'a URL with parentheses',
      '[Foo](https://en.wikipedia.org/wiki/Foo_(bar))',
      '<https://en.wikipedia.org/wiki/Foo_(bar)|Foo>',
    ],
    [
      'a bare URL with __',
      'see https://x.com/a__b__c now',
      'see <https://x.com/a__b__c|https://x.com/a__b__c> now',
    ],
    [
      'an autolink with ~~',
      'see <https://x.com/a~~b~~c> now',
      'see <https://x.com/a~~b~~c|https://x.com/a~~b~~c> now',
    ],
    ['a link with a title', '[a](https://x.com/ "t")', '<https://x.com/|a>'],
    ['a link with an empty label', '[](https://x.com/)', '<https://x.com/|https://x.com/>'],
    ['an image as a link label', '[![logo](https://x.com/i.png)](https://x.com/)', '<https://x.com/|logo>'],
    ['nested emphasis', '***x*** and **bold _it_**', '_*x*_ and *bold _it_*'],
    ['a task list', '- [x] done\n- [ ] todo', '• ☑ done\n• ☐ todo'],
    ['a mail link', 'Write to <ann@example.com>.', 'Write to ann@example.com.'],
  ])('renders %s', (_, markdown, mrkdwn) => {
    expect(convert(markdown)).toBe(mrkdwn);
  });

  it.each([
    [
      'a nested quote, one level deep as Slack has it',
      '> outer\n>\n> > inner\n>\n> back',
      '> outer\n> \n> inner\n> \n> back',
    ],
    [
      'entities the model typed, as typed',
      'Type &lt;!channel&gt; and &amp;',
      'Type &amp;lt;!channel&amp;gt; and &amp;amp;',
    ],
    [
      'an image with a title but no alt text, by its title',
      '![](https://x.com/i.png "Costs")',
      '<https://x.com/i.png|Costs>',
    ],
  ])('renders %s', (_, markdown, mrkdwn) => {
    expect(convert(markdown)).toBe(mrkdwn);
  });

  it('renders citations inside emphasis, links in tables and nothing that pings', () => {
    expect(convert('**Costs fell [1]** | x\n\n[<!channel>](https://x.com/)')).toBe(
      '*Costs fell <https://e.com/(USA)%20Card(s).pdf|[1]>* | x\n\n<https://x.com/|&lt;!channel&gt;>',
    );
  });
});

describe('markdownToMrkdwn against slackify-markdown’s test cases', () => {
  const strip = (s: string) => s.replace(/\u200b/g, '');
  it.each(SLACKIFY_CASES.map((c) => [c.name, c] as const))('%s', (_, c) => {
    const expected = c.ours?.mrkdwn ?? c.slackify;
    expect(strip(markdownToMrkdwn(c.markdown))).toBe(expected);
  });

  it('differs from slackify only where recorded, each with a reason', () => {
    const differing = SLACKIFY_CASES.filter((c) => c.ours);
    for (const c of differing) expect(c.ours!.why.length).toBeGreaterThan(10);
    expect(differing.length).toBeLessThanOrEqual(12);
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

  it('cuts a run without spaces only where it breaks no emoji, entity or link, losing nothing', () => {
    const link = '<https://example.com/x|label>';
    const run = Array.from({ length: 400 }, (_, i) => ['😀', '&amp;', link, 'abc', '&#x1F600;'][i % 5]).join(
      '',
    );
    const sections = splitMrkdwn(run, { section: 97, message: 10_000, blocks: 45 }).flat();
    expect(sections.join('')).toBe(run);
    for (const s of sections) {
      expect(s.length).toBeLessThanOrEqual(97);
      expect(s).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
      expect(s.replace(/&(?:amp|#x1F600);/g, '')).not.toContain('&');
      expect((s.match(/</g) ?? []).length).toBe((s.match(/>/g) ?? []).length);
    }
  });

  it('turns a link longer than a section into its label', () => {
    const long = `<https://example.com/${'a'.repeat(400)}|the label>`;
    expect(splitMrkdwn(`See ${long} now.`, { section: 300, message: 10_000, blocks: 45 })).toEqual([
      ['See the label now.'],
    ]);
  });
});
