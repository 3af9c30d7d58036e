import { z } from 'zod';
import type { LlmRequest } from '../../ports/llm.js';
import { confineLinks } from '../../ports/markdown/confine-links.js';
import type { Source } from '../../ports/report.js';
import type { ReportAnswer, ReportQuestion, ReportQuestions } from '../../ports/report-questions.js';
import { addModelUsage, emptyUsage, spendCost } from '../../ports/usage.js';
import { citationSpans } from '../citations/citation-spans.js';
import { readJsonAnswer } from '../json-answer.js';
import type { EngineBase } from '../session-context.js';
import type { EngineSettings } from '../settings.js';
import { strictJsonSchema } from '../strict-schema.js';
import { sameQuestionCheck } from './same-question.js';

const ANSWER = z.object({ answerable: z.boolean(), answer: z.string() });
const ANSWER_SCHEMA = strictJsonSchema(ANSWER);

/** What the model reads: the report (its start, if long) and the kept passages nearest the question. */
const REPORT_CHARS = 40_000;
const PASSAGES = 12;
const ANSWER_MS = 60_000;

/**
 * Questions about a report answered from the report and the passages its
 * research kept (full-text retrieval, then one model call): seconds and a
 * fraction of a research's cost, no search and no page read.
 */
export function reportQuestions(
  engine: () => Promise<EngineBase>,
  settings: EngineSettings,
): ReportQuestions {
  return {
    ...sameQuestionCheck(engine, settings),
    async answer(q: ReportQuestion, signal?: AbortSignal): Promise<ReportAnswer> {
      const deps = await engine();
      const found = (await deps.sourceTexts?.passages(q.sessionIds, q.question, PASSAGES)) ?? [];
      // The report's sources keep their numbers; a kept source it did not cite gets the next one.
      const sources: Source[] = [...q.report.sources];
      const numberOf = (key: string, title: string, url?: string): number => {
        const known = sources.find((s) => s.key === key);
        if (known) return known.n;
        const n = sources.length + 1;
        sources.push({ n, kind: url ? 'web' : 'kb', key, title, ...(url ? { url } : {}), snippet: '' });
        return n;
      };
      const passages = found.map((p) => `[${numberOf(p.key, p.title, p.url)}] ${p.title}\n${p.body}`);
      const system = deps.prompts.render('report-question', {
        current_date: new Date(deps.clock.now()).toISOString().slice(0, 10),
        answer_schema: JSON.stringify(ANSWER_SCHEMA),
      });
      const request: LlmRequest = {
        model: settings.models.agent,
        purpose: 'report_question',
        messages: [
          { role: 'system', content: system.text },
          { role: 'user', content: `The report:\n\n${q.report.markdown.slice(0, REPORT_CHARS)}` },
          {
            role: 'user',
            content: `Source passages:\n\n${passages.join('\n\n') || '(none matched the question)'}`,
          },
          { role: 'user', content: `The reader's question: ${q.question}` },
        ],
        maxTokens: system.settings.maxTokens,
        timeoutMs: Math.min(settings.llmTimeoutMs, ANSWER_MS),
        signal,
        jsonSchema: { name: 'report_question', schema: ANSWER_SCHEMA },
      };
      const response = await deps.llm.complete(request);
      const usage = emptyUsage();
      addModelUsage(usage, 'report_question', request.model.name, response.usage);
      // What the answer counts against the caps (a model without a price costs as the dearest one).
      const costUsd = spendCost(usage, settings.prices);
      const read = readJsonAnswer(response.text, ANSWER);
      // Paid for either way: an answer that cannot be used is a value with its cost, not an error.
      if ('problem' in read)
        return {
          kind: 'unusable',
          sentence: `The model's answer could not be used (${read.problem}): ask again, or start a new research.`,
          usage,
          costUsd,
        };
      if (!read.value.answerable || !read.value.answer.trim()) return { kind: 'unanswered', usage, costUsd };
      // Only numbers it was shown stay; the answer lists exactly the sources it cites.
      const known = new Set(sources.map((s) => s.n));
      let markdown = read.value.answer.trim();
      for (const span of citationSpans(markdown).reverse()) {
        const kept = span.numbers.filter((n) => known.has(n));
        markdown =
          markdown.slice(0, span.start) +
          (kept.length ? `[${kept.join(', ')}]` : '') +
          markdown.slice(span.end);
      }
      const cited = new Set(citationSpans(markdown).flatMap((s) => s.numbers));
      const listed = sources.filter((s) => cited.has(s.n));
      markdown = confineLinks(
        markdown,
        listed.flatMap((s) => (s.url ? [s.url] : [])),
      );
      return { kind: 'answered', markdown, sources: listed, usage, costUsd };
    },

    async maxCostUsd(): Promise<number> {
      const deps = await engine();
      const output = deps.prompts.render('report-question', { current_date: '', answer_schema: '' }).settings;
      const usage = emptyUsage();
      // The report's share, the passages (about 1,500 characters each) and the prompt, at four characters a token.
      const input = Math.ceil((REPORT_CHARS + PASSAGES * 1_500 + 8_000) / 4);
      addModelUsage(usage, 'report_question', settings.models.agent.name, {
        inputTokens: input,
        outputTokens: output.maxTokens ?? 3_000,
      });
      return spendCost(usage, settings.prices);
    },
  };
}
