import { z } from 'zod';
import type { Prompts } from '../../ports/prompts.js';
import { readJsonAnswer } from '../json-answer.js';
import { callModel, type SessionContext } from '../session-context.js';
import { strictJsonSchema } from '../strict-schema.js';

export type Verdict = 'supported' | 'partly' | 'unsupported';

/** One claim and the passage of one source the judge reads for it. */
export interface JudgePair {
  claim: string;
  n: number;
  title: string;
  passage: string;
}

const JUDGE_ANSWER = z.object({
  verdicts: z.array(
    z.object({
      pair: z.number().int(),
      verdict: z.enum(['supported', 'partly', 'unsupported']),
      quote: z.string(),
    }),
  ),
});

const JUDGE_SCHEMA = strictJsonSchema(JUDGE_ANSWER);

/** About what one verdict costs to write (pair number, verdict, a short quote). */
const ANSWER_TOKENS_PER_PAIR = 70;

/**
 * The pairs that fit the check's token budget, in order, as the judge reads
 * them: the rest stay unchecked.
 */
export function pairsWithin(ctx: SessionContext, pairs: JudgePair[], tokens: number): JudgePair[] {
  const fixed = ctx.deps.countTokens(system(ctx.deps.prompts));
  let used = fixed;
  const fitting: JudgePair[] = [];
  for (const [i, pair] of pairs.entries()) {
    const cost = ctx.deps.countTokens(entry(i, pair)) + ANSWER_TOKENS_PER_PAIR;
    if (used + cost > tokens) break;
    used += cost;
    fitting.push(pair);
  }
  return fitting;
}

/**
 * One model call for every pair lexical evidence did not settle: a verdict
 * and the supporting quote per pair. Throws when the model fails or its
 * answer is unusable; pairs it leaves out come back undefined.
 */
export async function judgeClaims(
  ctx: SessionContext,
  pairs: JudgePair[],
  until: number,
): Promise<({ verdict: Verdict; quote: string } | undefined)[]> {
  const response = await callModel(ctx, {
    ...judgeRequest(ctx.deps.prompts, pairs),
    model: ctx.settings.models.agent,
    until,
  });
  return readVerdicts(response.text, pairs);
}

/** The judge's request for `pairs` (its model and time left are the caller's). */
export function judgeRequest(prompts: Prompts, pairs: JudgePair[]) {
  return {
    purpose: 'citation_check' as const,
    messages: [
      { role: 'system' as const, content: system(prompts) },
      { role: 'user' as const, content: pairs.map((pair, i) => entry(i, pair)).join('\n\n') },
    ],
    maxTokens: Math.min(16_000, 200 + pairs.length * ANSWER_TOKENS_PER_PAIR * 2),
    jsonSchema: { name: 'citation_check', schema: JUDGE_SCHEMA },
  };
}

/** The judge's verdict per pair, in order (undefined where it said none); throws on an unusable answer. */
export function readVerdicts(
  text: string,
  pairs: JudgePair[],
): ({ verdict: Verdict; quote: string } | undefined)[] {
  const read = readJsonAnswer(text, JUDGE_ANSWER);
  if ('problem' in read) throw new Error(`the judge's answer could not be used: ${read.problem}`);
  const answers = new Map(read.value.verdicts.map((v) => [v.pair, v]));
  return pairs.map((_, i) => answers.get(i + 1));
}

function system(prompts: Prompts): string {
  return prompts.render('citation-check', { answer_schema: JSON.stringify(JUDGE_SCHEMA) }).text;
}

function entry(i: number, pair: JudgePair): string {
  return `Pair ${i + 1}\nClaim: ${pair.claim}\nSource [${pair.n}] ${pair.title}:\n"""${pair.passage}"""`;
}
