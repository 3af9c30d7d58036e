import { describeError } from '../../ports/errors.js';
import type { FinalReport, NamedSource, ReportChanges, Source } from '../../ports/report.js';
import type { EarlierRun, ReportComparison } from '../../ports/report-changes.js';
import { addModelUsage, emptyUsage, spendCost } from '../../ports/usage.js';
import { type JudgePair, judgeRequest, readVerdicts } from '../citations/claim-judge.js';
import { claimUnits } from '../citations/claim-units.js';
import type { EngineBase } from '../session-context.js';
import type { EngineSettings } from '../settings.js';

/** Findings of the earlier report that lost a source, judged at most: the rest are said to be unchecked. */
const MAX_JUDGED = 12;
/** This run's passages the judge reads per earlier finding (the best by shared words). */
const PASSAGES_PER_FINDING = 2;
const JUDGE_MS = 60_000;

/**
 * What changed since a schedule's earlier run. Sources are compared by
 * address (their key); a finding is a cited sentence (the claim check's
 * unit). New: a sentence of this report citing only sources the earlier run
 * did not have. No longer supported: a sentence of the earlier report citing
 * a source this run no longer has, for which the claim check's judge finds no
 * support in this run's kept sources (the passages sharing most of its
 * words); one model call for all of them.
 */
export function reportComparison(
  engine: () => Promise<EngineBase>,
  settings: EngineSettings,
): ReportComparison {
  return {
    async compare(earlier, sessionId, report, signal) {
      const deps = await engine();
      const base = sourceChanges(earlier, report);
      const candidates = lostSource(earlier.report, base.goneKeys);
      const judged = candidates.slice(0, MAX_JUDGED);
      const dropped: ReportChanges['dropped'] = [];
      let unchecked: ReportChanges['unchecked'];
      if (candidates.length > judged.length)
        unchecked = {
          count: candidates.length - judged.length,
          reason: `only ${MAX_JUDGED} are checked per run`,
        };
      let costUsd: number | null = 0;
      const pairs: { finding: number; pair: JudgePair }[] = [];
      for (const [finding, c] of judged.entries()) {
        const found = deps.sourceTexts
          ? await deps.sourceTexts.passages([sessionId], c.text, PASSAGES_PER_FINDING)
          : [];
        // Nothing this run kept speaks of it: no support to look for.
        if (found.length === 0) dropped.push({ text: c.text, sources: c.gone });
        for (const [i, p] of found.entries())
          pairs.push({ finding, pair: { claim: c.text, n: i + 1, title: p.title, passage: p.body } });
      }
      const asked = [...new Set(pairs.map((p) => p.finding))];
      if (asked.length) {
        const judgePairs = pairs.map((p) => p.pair);
        try {
          const request = {
            ...judgeRequest(deps.prompts, judgePairs),
            model: settings.models.agent,
            timeoutMs: Math.min(settings.llmTimeoutMs, JUDGE_MS),
            ...(signal && { signal }),
          };
          const response = await deps.llm.complete(request);
          const usage = emptyUsage();
          addModelUsage(usage, 'citation_check', request.model.name, response.usage);
          costUsd = spendCost(usage, settings.prices);
          const verdicts = readVerdicts(response.text, judgePairs);
          // A finding stands if any of its passages supports it, even in part.
          const supported = new Set(
            pairs
              .filter((_, i) => verdicts[i] && verdicts[i]!.verdict !== 'unsupported')
              .map((p) => p.finding),
          );
          for (const finding of asked)
            if (!supported.has(finding))
              dropped.push({ text: judged[finding]!.text, sources: judged[finding]!.gone });
        } catch (error) {
          if (signal?.aborted) throw error;
          unchecked = {
            count: asked.length + (unchecked?.count ?? 0),
            reason: `the check failed (${describeError(error)})`,
          };
        }
      }
      const newFindings = claimUnits(report.markdown)
        .filter((u) => {
          const ns = u.cites.flatMap((c) => c.numbers);
          return ns.length > 0 && ns.every((n) => base.addedNumbers.has(n));
        })
        .map((u) => report.markdown.slice(u.start, u.end).trim());
      const changes: ReportChanges = {
        earlierSessionId: earlier.sessionId,
        since: earlier.finishedAt.toISOString(),
        material: newFindings.length > 0 || dropped.length > 0,
        added: base.added,
        gone: base.gone,
        newFindings,
        dropped,
        ...(unchecked && { unchecked }),
      };
      return { changes, costUsd };
    },
  };
}

function named(s: Source): NamedSource {
  return { title: s.title, ...(s.url ? { url: s.url } : {}) };
}

function sourceChanges(earlier: EarlierRun, report: FinalReport) {
  const before = new Set(earlier.report.sources.map((s) => s.key));
  const now = new Set(report.sources.map((s) => s.key));
  const added = report.sources.filter((s) => !before.has(s.key));
  const gone = earlier.report.sources.filter((s) => !now.has(s.key));
  return {
    added: added.map((s) => ({ n: s.n, title: s.title })),
    addedNumbers: new Set(added.map((s) => s.n)),
    gone: gone.map(named),
    goneKeys: new Set(gone.map((s) => s.key)),
  };
}

/** The earlier report's cited sentences that cite a source now gone, with those sources. */
function lostSource(earlier: FinalReport, goneKeys: Set<string>) {
  const byNumber = new Map(earlier.sources.map((s) => [s.n, s]));
  return claimUnits(earlier.markdown).flatMap((u) => {
    const gone = u.cites
      .flatMap((c) => c.numbers)
      .map((n) => byNumber.get(n))
      .filter((s): s is Source => Boolean(s && goneKeys.has(s.key)));
    return gone.length
      ? [{ text: u.text, gone: [...new Map(gone.map((s) => [s.key, named(s)])).values()] }]
      : [];
  });
}
