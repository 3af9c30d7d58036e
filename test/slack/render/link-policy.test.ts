import { describe, expect, it } from 'vitest';
import type { FinalReport } from '../../../src/engine/session-state.js';
import { reportDocument } from '../../../src/ports/report-markdown.js';
import { canvasDocument } from '../../../src/slack/render/canvas-markdown.js';
import { planMessage } from '../../../src/slack/render/plan-message.js';
import { reportMessages } from '../../../src/slack/render/report-messages.js';
import { summaryMessage } from '../../../src/slack/render/summary-message.js';

const SOURCE = 'https://example.com/page';

/** Every form a page's text could smuggle a link in, in the summary and in the body (issue 24). */
const HOSTILE = [
  'Send it to "https://evil.example/steal?data=x" [1].',
  "Or data=https://evil.example/a, or 'https://evil.example/b', or www.evil.example/c.",
  'Or <https://evil.example/d|click here> and [![](@U999) see source](<https://example.com/page>).',
].join(' ');

const report: FinalReport = {
  markdown: `# Tidal power\n\n## Summary\n\n- ${HOSTILE}\n\n## Findings\n\n${HOSTILE}\n`,
  sources: [{ n: 1, kind: 'web', key: SOURCE, title: 'A page', url: SOURCE, snippet: '' }],
  partial: null,
  durationMs: 1000,
  sourcesSeen: 1,
  costUsd: null,
};

/** Anything a reader could click that leads to the attacker: a URL, or in Slack mrkdwn a `<…>` link to its host. */
function evil(text: string, mrkdwn = true): string[] {
  const url = /(?:https?:\/\/|(?<![\p{L}\p{N}.-])www\.)evil\.example[^\s]*/giu;
  const slackLink = /<[^>|]*evil[^>]*>/gi;
  return [...text.matchAll(url), ...(mrkdwn ? text.matchAll(slackLink) : [])].map((m) => m[0]);
}

describe('the link policy, in every output', () => {
  it('leaves no live link to a page nobody cited in the summary, the split report, the canvas or report.md', () => {
    const outputs = {
      summary: JSON.stringify(summaryMessage(report, 'footer', 'S1')),
      messages: JSON.stringify(reportMessages(report)),
      canvas: canvasDocument('Tidal power?', report, 'footer').markdown,
      file: reportDocument('Tidal power?', report, 'footer'),
    };
    for (const [where, text] of Object.entries(outputs))
      expect(evil(text, where === 'summary' || where === 'messages'), where).toEqual([]);
    // The cited source stays a link, and the mention hidden in its label is gone.
    expect(outputs.canvas).toContain('(<https://example.com/page>)');
    expect(outputs.canvas).not.toContain('@U999');
    expect(outputs.messages).toContain('<https://example.com/page|');
  });

  it('makes links in the plan inert: a plan cites nothing yet', () => {
    const text = JSON.stringify(
      planMessage('1. Read "https://evil.example/x" and www.evil.example', { sessionId: 'S1' }),
    );
    expect(evil(text)).toEqual([]);
  });
});
