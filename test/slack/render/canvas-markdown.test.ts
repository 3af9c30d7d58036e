import { describe, expect, it } from 'vitest';
import type { FinalReport } from '../../../src/engine/session-state.js';
import { canvasDocument } from '../../../src/slack/render/canvas-markdown.js';

const report = (markdown: string): FinalReport => ({
  markdown,
  sources: [
    { n: 1, url: 'https://a.example/x(1)', title: 'A' },
    { n: 2, path: 'handbook.md', title: 'Handbook' },
  ] as FinalReport['sources'],
  partial: null,
  durationMs: 1000,
  sourcesSeen: 2,
  costUsd: null,
});

describe('canvasDocument', () => {
  it('links citations outside code, leaves knowledge-base numbers and code alone, caps headings at h3', () => {
    const doc = canvasDocument(
      'What is X?\nMore context',
      report(
        '## Summary\n\n- X is A [1, 2].\n\n#### Detail\n\n`[1]` and\n\n```\n[1]\n```\n\n[link [1]](https://a.example/x(1))',
      ),
      'footer',
    );
    expect(doc.title).toBe('What is X?');
    expect(doc.markdown).toBe(
      [
        '## Summary',
        '- X is A [[1](https://a.example/x%281%29), 2].',
        '### Detail',
        '`[1]` and',
        '```\n[1]\n```',
        '[link [1]](https://a.example/x(1))',
        '## Sources\n\n1. [A](https://a.example/x(1)), a.example\n2. Handbook, handbook.md',
        '_footer_',
      ].join('\n\n'),
    );
  });

  it("takes the report's own title, keeps a partial banner, and drops raw HTML's power", () => {
    const doc = canvasDocument(
      'q',
      report('> **Partial report**\n\n# Own title\n\nText <b>x</b> <!here>'),
      'f',
    );
    expect(doc.title).toBe('Own title');
    expect(doc.markdown.startsWith('> **Partial report**\n\nText &lt;b>x&lt;/b> &lt;!here>')).toBe(true);
  });
});
