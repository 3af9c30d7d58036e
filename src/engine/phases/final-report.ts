import type { ChatMessage } from '../../ports/llm.js';
import { confineLinks } from '../../ports/markdown/confine-links.js';
import type { ReportChart } from '../../ports/report.js';
import { estimateCost } from '../../ports/usage.js';
import { chartsMarkdown } from '../charts/charts-markdown.js';
import { CHART_LIMITS, reportCharts } from '../charts/report-charts.js';
import { renumberCitations } from '../citations/renumber-citations.js';
import { callModel, currentDate, deadlineOf, interruption, type SessionContext } from '../session-context.js';
import { everyAgentFailed, researchWork } from '../session-failures.js';
import type { FinalReport, PartialReason } from '../session-state.js';
import { errorText } from '../tools/tool-result.js';
import { type CheckedReport, checkCitations } from './check-citations.js';
import { extractFindings, type Finding } from './findings.js';
import { researchRequestText } from './research-request.js';

const PARTIAL_WHY: Record<PartialReason, string> = {
  time_budget: 'research stopped early because the time budget ran out',
  token_budget: 'research stopped early because the token budget was used up',
  tool_call_budget: 'research stopped early because the tool-call budget was used up',
  spend_cap: "research stopped early because today's spending cap was reached",
  provider_error: 'research stopped early because the model service failed',
  report_unavailable:
    'the report could not be written in full, so findings are shown as the research agents wrote them',
  cancelled: 'the research was cancelled; these are the findings gathered until then',
  agents_failed: 'some research agents failed',
};

/**
 * Writes the final report from the agents' findings with the plan as a guide,
 * by rolling synthesis when the findings exceed the report model's input
 * budget. If the model fails or time runs out, the findings themselves become
 * the report, so what was gathered is never lost. A backend whose own agent
 * wrote the report (`written`) has it checked and finished the same way.
 */
export async function writeFinalReport(
  ctx: SessionContext,
  written: string | null = null,
): Promise<FinalReport | 'cancelled'> {
  const { state } = ctx;
  const findings = extractFindings(state, ctx.work);
  let partial: PartialReason | null = state.stopReason;
  let markdown: string;
  if (written !== null) {
    markdown = written;
  } else if (findings.length === 0) {
    markdown = nothingFound(ctx);
  } else {
    const written = await synthesize(ctx, findings);
    if (written === 'cancelled') return 'cancelled';
    markdown = written.markdown;
    if (written.fallback) partial = 'report_unavailable';
  }
  const checked = await checkCitations(ctx, markdown);
  if (checked === 'cancelled') return 'cancelled';
  const charts = await reportCharts(ctx, checked.markdown);
  return finalize(ctx, checked.markdown, partial, checked, charts);
}

/**
 * A cancelled session's findings so far, citations resolved, labelled as the
 * partial findings of a cancelled research (agents stopped by the cancel did
 * not fail, so they are not reported as failures).
 */
export function cancelledReport(ctx: SessionContext): FinalReport {
  const findings = extractFindings(ctx.state, ctx.work);
  const markdown = findings.length
    ? findingsMarkdown(findings)
    : 'The research was cancelled before any findings were written.';
  return finalize(ctx, markdown, 'cancelled');
}

function finalize(
  ctx: SessionContext,
  markdown: string,
  partial: PartialReason | null,
  checked?: CheckedReport,
  proposed: ReportChart[] = [],
): FinalReport {
  // The coverage check's words are the model's: confined like the report.
  const thin = ctx.state.thinSteps?.length
    ? `> **Thin coverage:** the findings leave these steps of the plan thin: ${ctx.state.thinSteps.join('; ')}.\n\n`
    : '';
  const confined = confineLinks(
    thin + markdown,
    ctx.state.sources.flatMap((s) => (s.url ? [s.url] : [])),
  );
  // A later version keeps the earlier version's numbers for its sources, first.
  const earlier = (ctx.state.earlierCitations ?? []).flatMap((key) => ctx.sources.byKey(key)?.n ?? []);
  const { text, order } = renumberCitations(confined, (n) => ctx.sources.get(n) !== undefined, earlier);
  const sources = order.map((old, i) => {
    const quotes = checked?.quotes.get(old);
    return { ...ctx.sources.get(old)!, n: i + 1, ...(quotes ? { quotes } : {}) };
  });
  // A report written after an agent failed says so, with what failed (cancelled agents did not fail).
  const { records, noun } = researchWork(ctx.state, ctx.work);
  const failed = records.filter((a) => a.status === 'failed' && a.error !== 'cancelled');
  // Each failed one by what it was to find, so a reader knows what the report lacks.
  const failedWhy = failed.length
    ? `${failed.length} of ${records.length} ${noun}s failed: ${failed.map((a) => `“${shortTask(a.task)}” (${a.error ?? 'unknown error'})`).join('; ')}`
    : null;
  // A tool server that failed during research is named: what it holds may be missing.
  const servers = Object.entries(ctx.state.serverFailures ?? {}).map(([, why]) => why);
  const serversWhy = servers.length ? `some sources could not be searched: ${servers.join('; ')}` : null;
  const why = [
    partial ? PARTIAL_WHY[partial] : null,
    partial !== 'cancelled' ? failedWhy : null,
    serversWhy,
  ].filter(Boolean);
  const banner = why.length ? `> **Partial report:** ${why.join('; ')}.\n\n` : '';
  // A chart's points cite the report's final numbers; one whose source is no longer cited goes.
  const charts = proposed.flatMap((chart) => {
    const points = chart.points.flatMap((p) =>
      order.includes(p.source) ? [{ ...p, source: order.indexOf(p.source) + 1 }] : [],
    );
    const dropped = chart.dropped + chart.points.length - points.length;
    return points.length >= CHART_LIMITS.fewest ? [{ ...chart, points, dropped }] : [];
  });
  const figures = chartsMarkdown(charts);

  return {
    markdown: banner + text.trim() + (figures ? `\n\n${figures}` : ''),
    sources,
    partial: partial ?? (failedWhy ? 'agents_failed' : null),
    durationMs: ctx.deps.clock.now() - (ctx.state.startedAt ?? ctx.deps.clock.now()),
    sourcesSeen: ctx.state.sources.length,
    costUsd: estimateCost(ctx.state.usage, ctx.settings.prices),
    ...(checked ? { citationCheck: checked.check } : {}),
    ...(charts.length ? { charts } : {}),
  };
}

/** A task as a label names it: its first words, on one line. */
function shortTask(task: string): string {
  const line = task.replace(/\s+/g, ' ').trim();
  return line.length > 100 ? `${line.slice(0, 99).replace(/\s+\S*$/, '')}…` : line;
}

type Synthesis = { markdown: string; fallback: boolean } | 'cancelled';

async function synthesize(ctx: SessionContext, findings: Finding[]): Promise<Synthesis> {
  const { deps } = ctx;
  const until = deadlineOf(ctx);
  const plan = ctx.state.plan ?? '';
  const request = researchRequestText(deps.prompts, ctx.state.request);
  const system = deps.prompts.render('final-report', { current_date: currentDate(ctx) });
  const reminder = deps.prompts.render('final-report-reminder', { research_plan: plan }).text;
  const merge = deps.prompts.render('final-report-merge', {
    current_date: currentDate(ctx),
    research_plan: plan,
  });
  const maxDraft = system.settings.maxTokens ?? 20_000;
  const fixed = deps.countTokens(system.text + request + reminder + merge.text);
  const groups = packFindings(
    findings,
    (t) => deps.countTokens(t),
    ctx.settings.reportInputTokens - fixed - maxDraft,
  );

  let draft = '';
  for (const [i, group] of groups.entries()) {
    const last = i === groups.length - 1;
    const messages: ChatMessage[] =
      i === 0
        ? [
            { role: 'system', content: system.text },
            { role: 'user', content: request },
            { role: 'user', content: `Findings from the research agents:\n\n${group}` },
            { role: 'user', content: reminder },
          ]
        : [
            { role: 'system', content: merge.text },
            { role: 'user', content: request },
            { role: 'user', content: `Current report draft:\n\n${draft}` },
            { role: 'user', content: `New findings to merge into the draft:\n\n${group}` },
          ];
    try {
      const response = await callModel(ctx, {
        model: ctx.settings.models.report,
        purpose: i === 0 ? 'final_report' : 'report_merge',
        messages,
        maxTokens: (i === 0 ? system : merge).settings.maxTokens,
        until,
        onTextDelta: last ? (text) => deps.emit({ type: 'report_delta', text }) : undefined,
      });
      if (!response.text.trim()) throw new Error('the model returned an empty report');
      draft = response.text;
    } catch (error) {
      if (interruption(ctx, until) === 'cancelled') return 'cancelled';
      ctx.log.warn(
        { err: error, pass: i + 1, passes: groups.length },
        `final report failed: ${errorText(error)}`,
      );
      const rest = groups.slice(i).join('\n\n');
      return { markdown: draft ? `${draft}\n\n## Further findings\n\n${rest}` : rest, fallback: true };
    }
  }
  return { markdown: draft, fallback: false };
}

/** Findings as report text: one heading per task, citations intact. */
function findingsMarkdown(findings: Finding[]): string {
  return findings.map(block).join('\n\n');
}

function block(f: Finding): string {
  return `### ${f.task}\n\n${f.report}`;
}

/**
 * Findings in groups that each fit `budget` tokens; a finding too large on its
 * own is split at paragraph boundaries. One group when everything fits.
 */
export function packFindings(findings: Finding[], count: (text: string) => number, budget: number): string[] {
  // Each piece is counted once; a separator costs about one token, so sums stay close to a recount.
  const units: { text: string; tokens: number }[] = [];
  for (const f of findings) {
    const text = block(f);
    const tokens = count(text);
    if (tokens <= budget) {
      units.push({ text, tokens });
      continue;
    }
    // Too large alone: split at paragraphs, each piece keeping its task heading so it still reads on its own.
    const heading = `### ${f.task} (continued)`;
    const pieces = f.report.split(/\n{2,}/).map((p) => `${heading}\n\n${p}`);
    units.push(
      ...pack(
        pieces.map((p) => ({ text: p, tokens: count(p) })),
        budget,
      ),
    );
  }
  return pack(units, budget).map((u) => u.text);
}

function pack(units: { text: string; tokens: number }[], budget: number): { text: string; tokens: number }[] {
  const out: { text: string; tokens: number }[] = [];
  let current: { text: string; tokens: number } | null = null;
  for (const unit of units) {
    if (current && current.tokens + 1 + unit.tokens <= budget) {
      current = { text: `${current.text}\n\n${unit.text}`, tokens: current.tokens + 1 + unit.tokens };
    } else {
      if (current) out.push(current);
      current = { ...unit };
    }
  }
  if (current) out.push(current);
  return out;
}

function nothingFound(ctx: SessionContext): string {
  const { records, noun } = researchWork(ctx.state, ctx.work);
  if (records.length === 0) return 'No research could be carried out, so there is nothing to report.';
  const failed = everyAgentFailed(ctx.state, ctx.work);
  if (failed) return `${failed}, so nothing was found and there is nothing to report.`;
  return `The ${noun}s found no sources for this question, so there is nothing to report.`;
}
