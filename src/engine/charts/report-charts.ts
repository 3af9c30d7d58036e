import { z } from 'zod';
import type { ReportChart } from '../../ports/report.js';
import { askForJson } from '../ask-for-json.js';
import { claimUnits } from '../citations/claim-units.js';
import { keptTexts } from '../citations/kept-texts.js';
import { figuresOf } from '../citations/text-terms.js';
import { interruption, type SessionContext } from '../session-context.js';
import { errorText } from '../tools/tool-result.js';

const ANSWER = z.object({
  charts: z.array(
    z.object({
      title: z.string(),
      kind: z.enum(['bar', 'line']),
      measure: z.string(),
      unit: z.string(),
      points: z.array(z.object({ label: z.string(), value: z.number(), source: z.number().int() })),
    }),
  ),
});
/** The one call's time: charts are a view of the report, never worth holding its delivery long. */
const CHART_CALL_MS = 60_000;

/** Slack's data visualization block: at most two a message, a title of 50 characters, 20 points, labels of 20. */
export const CHART_LIMITS = { charts: 2, points: 20, title: 50, label: 20, fewest: 3 } as const;

/**
 * Charts of the report's own cited figures: one model call reads the series
 * and comparisons out of the report (only when it states at least three cited
 * figures), and each point is kept only when the report states its figure
 * citing that source and the source's text holds it. A chart left with fewer
 * than three points is dropped. Numbers are the report's as written (before
 * the final renumbering). A call that fails leaves the report without charts.
 */
export async function reportCharts(ctx: SessionContext, markdown: string): Promise<ReportChart[]> {
  if (!ctx.settings.charts) return [];
  const stated = citedFigures(markdown);
  const count = [...stated.values()].reduce((sum, figures) => sum + figures.size, 0);
  if (count < CHART_LIMITS.fewest) return [];
  const until = ctx.deps.clock.now() + Math.min(CHART_CALL_MS, ctx.settings.llmTimeoutMs);
  let proposed: z.infer<typeof ANSWER>['charts'];
  try {
    proposed = await proposeCharts(ctx, markdown, until);
  } catch (error) {
    if (!interruption(ctx, until))
      ctx.log.warn({ err: error }, `report charts: none drawn: ${errorText(error)}`);
    return [];
  }
  const cited = [...new Set(proposed.flatMap((c) => c.points.map((p) => p.source)))].filter((n) =>
    ctx.sources.get(n),
  );
  const texts = await keptTexts(ctx, cited);
  const charts: ReportChart[] = [];
  for (const chart of proposed.slice(0, CHART_LIMITS.charts)) {
    const held = chart.points.filter((p) => {
      const figure = figuresOf(String(p.value))[0];
      const source = texts.get(p.source);
      return (
        figure !== undefined &&
        stated.get(p.source)?.has(figure) &&
        source !== undefined &&
        figuresOf(source.text, true).includes(figure)
      );
    });
    if (held.length < CHART_LIMITS.fewest) continue;
    charts.push({
      title: chart.title.trim().slice(0, CHART_LIMITS.title) || chart.measure.slice(0, CHART_LIMITS.title),
      kind: chart.kind,
      measure: chart.measure.trim(),
      unit: chart.unit.trim(),
      points: held.slice(0, CHART_LIMITS.points).map((p) => ({
        label: p.label.trim().slice(0, CHART_LIMITS.label),
        value: p.value,
        source: p.source,
      })),
      dropped: chart.points.length - held.length,
    });
  }
  if (charts.length)
    ctx.deps.emit({ type: 'checking', text: `Charts: ${charts.map((c) => c.title).join('; ')}` });
  return charts;
}

/** The figures the report states, by the source each sentence cites. */
function citedFigures(markdown: string): Map<number, Set<string>> {
  const byNumber = new Map<number, Set<string>>();
  for (const unit of claimUnits(markdown)) {
    // As found: "2.1 million" also states 2.1, as a chart in million units gives it.
    const figures = figuresOf(unit.text, true);
    if (!figures.length) continue;
    for (const n of unit.cites.flatMap((c) => c.numbers)) {
      const set = byNumber.get(n) ?? new Set<string>();
      for (const f of figures) set.add(f);
      byNumber.set(n, set);
    }
  }
  return byNumber;
}

async function proposeCharts(ctx: SessionContext, markdown: string, until: number) {
  const answer = await askForJson(ctx, {
    prompt: 'report-charts',
    purpose: 'report_charts',
    answer: ANSWER,
    user: markdown,
    until,
    what: 'the charts',
  });
  return answer.charts;
}
