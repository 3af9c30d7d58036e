import type { SessionContext } from '../session-context.js';
import { ANSWER_KEY, lineage } from '../sources/keep-source.js';
import { readSource, type SourceSentences } from './source-sentences.js';

/**
 * The text each cited source is checked against: its kept page, else (a
 * hosted answer's page that could not be read) the answer that cited it,
 * counted in `answerOnly`, else the snippet research saw.
 */
export async function keptTexts(
  ctx: SessionContext,
  numbers: number[],
  answerOnly: Set<number> = new Set(),
): Promise<Map<number, SourceSentences>> {
  const texts = new Map<number, SourceSentences>();
  for (const n of numbers) {
    const source = ctx.sources.get(n)!;
    let text = source.snippet ?? '';
    try {
      const kept =
        (await ctx.deps.sourceTexts?.find(lineage(ctx), source.key)) ??
        (await ctx.deps.sourceTexts?.find(lineage(ctx), ANSWER_KEY + source.key));
      if (kept) text = kept.text;
      if (kept?.key.startsWith(ANSWER_KEY)) answerOnly.add(n);
    } catch (err) {
      ctx.log.warn(
        { err, source: source.key },
        "citation check: a source's kept text could not be read; using its snippet",
      );
    }
    if (text.trim()) texts.set(n, readSource(text));
  }
  return texts;
}
