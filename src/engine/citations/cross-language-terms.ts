import { z } from 'zod';
import { askForJson } from '../ask-for-json.js';
import { interruption, type SessionContext } from '../session-context.js';
import { errorText } from '../tools/tool-result.js';
import { bestEvidence, type Evidence, readClaim } from './claim-evidence.js';
import type { SourceSentences } from './source-sentences.js';
import { figuresOf } from './text-terms.js';

/** A claim and the source in another language it cites. */
export interface CrossLanguageClaim {
  claim: string;
  /** The start of the source's text: enough for the model to see its language. */
  sourceStart: string;
}

const ANSWER = z.object({
  claims: z.array(z.object({ claim: z.number().int(), terms: z.array(z.string()) })),
});
/** Claims asked about in one call at most (the rest are located by their figures alone). */
export const MOST_CLAIMS = 40;
const SOURCE_START_CHARS = 160;
const TERMS_PER_CLAIM = 8;

/** A claim, its cited source and the evidence found there by the claim's own words and figures. */
export interface Located {
  claim: string;
  /** Undefined when the source has no text to check against (its evidence is null then too). */
  source: SourceSentences | undefined;
  evidence: Evidence | null;
}

/**
 * The evidence for claims citing a source in another language, found again
 * with their key terms in the source's language where their figures alone
 * did not find a place that holds them all (a claim without figures, or one
 * whose figures are spread or absent): one model call for the report. A call
 * that fails leaves every pair as it was, logged once.
 */
export async function locateAcrossLanguages(
  ctx: SessionContext,
  items: Located[],
  until: number,
): Promise<(Evidence | null)[]> {
  const found = items.map((item) => item.evidence);
  const needing = items.flatMap((item, i) =>
    item.source && item.evidence && needsTerms(item.claim, item.evidence) ? [i] : [],
  );
  if (needing.length === 0) return found;
  let terms: string[][];
  try {
    terms = await crossLanguageTerms(
      ctx,
      needing.map((i) => ({ claim: items[i]!.claim, sourceStart: items[i]!.source!.text })),
      until,
    );
  } catch (error) {
    // A cancel or the check's deadline is the judge's to meet next; only a failure is worth a line.
    if (!interruption(ctx, until))
      ctx.log.warn({ err: error }, `citation check: no terms in the sources' languages: ${errorText(error)}`);
    return found;
  }
  needing.forEach((i, k) => {
    if (!terms[k]?.length) return;
    const again = bestEvidence(items[i]!.claim, items[i]!.source!, terms[k]);
    if (again?.passage) found[i] = again;
  });
  return found;
}

/** A claim in another script than its source whose place its figures did not find whole. */
function needsTerms(claim: string, evidence: Evidence): boolean {
  if (evidence.sameScript) return false;
  const figures = readClaim(claim).figures;
  if (evidence.passage === null || figures.length === 0) return true;
  const shown = new Set(figuresOf(evidence.passage, true));
  return !figures.every((f) => shown.has(f));
}

/**
 * One model call for the report: each claim's key terms as its cited source,
 * in another language, would write them, so the claim's place can be found
 * there by words as well as by figures. Metered with the session's usage.
 * Throws when the model fails or its answer is unusable.
 */
export async function crossLanguageTerms(
  ctx: SessionContext,
  claims: CrossLanguageClaim[],
  until: number,
): Promise<string[][]> {
  const asked = claims.slice(0, MOST_CLAIMS);
  const user = asked
    .map(
      (c, i) =>
        `Claim ${i + 1}: ${c.claim}\nSource starts: ${c.sourceStart.replace(/\s+/g, ' ').slice(0, SOURCE_START_CHARS)}`,
    )
    .join('\n\n');
  const answer = await askForJson(ctx, {
    prompt: 'citation-terms',
    purpose: 'citation_terms',
    answer: ANSWER,
    user,
    until,
    what: 'the terms',
  });
  const byClaim = new Map(answer.claims.map((c) => [c.claim, c.terms.slice(0, TERMS_PER_CLAIM)]));
  return claims.map((_, i) => byClaim.get(i + 1) ?? []);
}
