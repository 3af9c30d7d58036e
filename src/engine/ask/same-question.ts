import { z } from 'zod';
import type { LlmRequest } from '../../ports/llm.js';
import type { QuestionComparison, ReportQuestions } from '../../ports/report-questions.js';
import { addModelUsage, emptyUsage, spendCost } from '../../ports/usage.js';
import { readJsonAnswer } from '../json-answer.js';
import type { EngineBase } from '../session-context.js';
import type { EngineSettings } from '../settings.js';
import { strictJsonSchema } from '../strict-schema.js';

const VERDICT = z.object({ same: z.boolean() });
const VERDICT_SCHEMA = strictJsonSchema(VERDICT);
/** Both questions are at most MAX_QUESTION_CHARS (3,000) each; the prompt is short. */
const INPUT_CHARS = 2 * 3_000 + 2_000;
const COMPARE_MS = 20_000;

/**
 * Whether a new question asks what an earlier report answers: one short
 * model call, made only for a candidate the words already match (figures,
 * names and contrasting terms such as solar/wind are what words miss).
 */
export function sameQuestionCheck(
  engine: () => Promise<EngineBase>,
  settings: EngineSettings,
): Pick<ReportQuestions, 'compare' | 'maxCompareCostUsd'> {
  return {
    async compare(earlier: string, asked: string, signal?: AbortSignal): Promise<QuestionComparison> {
      const deps = await engine();
      const system = deps.prompts.render('same-question', { answer_schema: JSON.stringify(VERDICT_SCHEMA) });
      const request: LlmRequest = {
        model: settings.models.agent,
        purpose: 'same_question',
        messages: [
          { role: 'system', content: system.text },
          { role: 'user', content: `Researched earlier: ${earlier}\n\nJust asked: ${asked}` },
        ],
        maxTokens: system.settings.maxTokens,
        timeoutMs: Math.min(settings.llmTimeoutMs, COMPARE_MS),
        signal,
        jsonSchema: { name: 'same_question', schema: VERDICT_SCHEMA },
      };
      const response = await deps.llm.complete(request);
      const usage = emptyUsage();
      addModelUsage(usage, 'same_question', request.model.name, response.usage);
      const read = readJsonAnswer(response.text, VERDICT);
      return {
        same: 'problem' in read ? null : read.value.same,
        usage,
        costUsd: spendCost(usage, settings.prices),
      };
    },

    async maxCompareCostUsd(): Promise<number> {
      const deps = await engine();
      const output = deps.prompts.render('same-question', { answer_schema: '' }).settings;
      const usage = emptyUsage();
      addModelUsage(usage, 'same_question', settings.models.agent.name, {
        inputTokens: Math.ceil(INPUT_CHARS / 4),
        outputTokens: output.maxTokens ?? 200,
      });
      return spendCost(usage, settings.prices);
    },
  };
}
