import type { Prompts } from '../../ports/prompts.js';
import type { ResearchRequest } from '../session-state.js';

/** The user's side of the conversation as one message: the discussion, earlier research, question, clarification. */
export function researchRequestText(prompts: Prompts, request: ResearchRequest): string {
  return prompts.render('research-request', {
    question: request.question,
    clarification_questions: request.clarification?.questions ?? '',
    clarification_answer: request.clarification?.answer ?? '',
    previous_research: request.previousResearch ?? '',
    discussion: request.discussion?.text ?? '',
    files: (request.files?.given ?? []).map((f) => `- ${f.name}`).join('\n'),
  }).text;
}
