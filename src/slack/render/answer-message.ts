import type { Source } from '../../ports/report.js';
import { ACTION, button, context, oneLine, type SlackMessage, sections } from './messages.js';
import { modelMrkdwn, mrkdwnLink, safeText } from './mrkdwn.js';

/**
 * A reader's question answered from the report's sources: the answer, its
 * citations linked, the sources it cites. It names and mentions no one.
 */
export function answerMessage(answer: { markdown: string; sources: Source[] }): SlackMessage {
  const cited = answer.sources
    .map((s) =>
      s.url
        ? mrkdwnLink(s.url, `[${s.n}] ${oneLine(s.title, 80)}`)
        : `[${s.n}] ${safeText(oneLine(s.title, 80))}`,
    )
    .join(' · ');
  const blocks = sections(`${modelMrkdwn(answer.markdown, answer.sources)}`);
  if (cited) blocks.push(context(cited));
  blocks.push(
    context(':books: Answered from this report and the sources its research read, without new research.'),
  );
  return { text: 'Answer from the report', blocks };
}

/** The report and its sources do not answer it: said plainly, with the way to research it. */
export function unansweredMessage(sessionId: string, answerId: number): SlackMessage {
  const text = 'This report and the sources its research read do not answer that question.';
  return {
    text,
    blocks: [
      ...sections(`:mag: ${text} A new research can look for it.`),
      {
        type: 'actions',
        block_id: 'answer_actions',
        elements: [button('Research this', ACTION.researchThis, `${sessionId}:${answerId}`, 'primary')],
      },
    ],
  };
}
