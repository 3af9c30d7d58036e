/**
 * A finished (or partial) report as every surface reads it (Slack, the
 * terminal, a file), whatever researched it: the backend-neutral view of a
 * report. The engine's session state holds one; surfaces never need the rest.
 */

export interface Source {
  /** Session-global number, stable from the moment the source was first shown to an agent. */
  n: number;
  kind: 'web' | 'kb' | 'file';
  /**
   * Canonical URL for web pages, `kb:<documentId>` for knowledge-base documents, `file:<id>` for files
   * shared with the question.
   */
  key: string;
  title: string;
  url?: string;
  path?: string;
  snippet: string;
  publishedAt?: string;
  author?: string;
  /** What the source says that supports the report's sentences citing it (short, verbatim), when checked. */
  quotes?: string[];
}

/**
 * What the claim check did to the report's citations: `41 of 43 citations
 * checked · 2 moved · 1 removed`. A check that could not run (or ran out of
 * budget before the judge answered) says why in `note`.
 */
export interface CitationCheck {
  /** Citations in the report as written (one per source per sentence). */
  citations: number;
  /** Of them, judged against the source's text. */
  checked: number;
  /** Taken off a source that did not support the sentence, the sentence being supported by another. */
  moved: number;
  /** Taken off with no other source supporting the sentence. */
  removed: number;
  /** Sentences left with no supporting citation, marked ⚠ unverified. */
  unverified: number;
  /** Of the checked, those whose page could not be read: checked against the hosted answer that cited it only. */
  answerOnly?: number;
  /** Why citations were left unchecked: "the check's time budget ran out", "the check failed", … */
  note?: string;
}

/** Why research stopped before the orchestrator chose to report: the report is then labelled partial. */
export type StopReason = 'time_budget' | 'token_budget' | 'tool_call_budget' | 'spend_cap' | 'provider_error';

/**
 * Why a report is labelled partial: research stopped early, the report model
 * failed and findings are shown as they are, the research was cancelled, or
 * some research agents failed (the banner says which and why).
 */
export type PartialReason = StopReason | 'report_unavailable' | 'cancelled' | 'agents_failed';

export interface FinalReport {
  /** Markdown with citations renumbered [1]..[n] in order of first citation. */
  markdown: string;
  /** Exactly the cited sources; `n` is the final number. */
  sources: Source[];
  partial: PartialReason | null;
  durationMs: number;
  sourcesSeen: number;
  /** Null when a model used has no price in the table. */
  costUsd: number | null;
  /** The claim check's figures; absent in reports written before it existed. */
  citationCheck?: CitationCheck;
  /** A scheduled run after the first: what changed since the earlier run (its section opens the markdown). */
  changes?: ReportChanges;
  /** The report's cited figures as charts (at most two; each point's source number is the report's). */
  charts?: ReportChart[];
}

/**
 * A series or comparison of one measure the report states, each point with
 * the source the report cites for it; a point whose figure is not in that
 * source (or not in the report citing it) was dropped, and `dropped` says how many.
 */
export interface ReportChart {
  title: string;
  kind: 'bar' | 'line';
  measure: string;
  unit: string;
  points: { label: string; value: number; source: number }[];
  dropped: number;
}

/** A source named in a change: by its title and address (a gone source is not in the new report's list). */
export interface NamedSource {
  title: string;
  url?: string;
}

/**
 * What changed between an earlier run of a schedule and this one: findings
 * only this run's new sources support, the earlier report's findings whose
 * sources are gone and that the claim check finds no support for in this
 * run's sources, and the sources added and gone (by address).
 */
export interface ReportChanges {
  earlierSessionId: string;
  /** When the earlier run finished (ISO). */
  since: string;
  /** A finding came or went: the report is worth reading again. */
  material: boolean;
  /** This report's sources the earlier one did not have (their numbers are this report's). */
  added: { n: number; title: string }[];
  gone: NamedSource[];
  /** Sentences of this report citing only added sources, with their citations as written. */
  newFindings: string[];
  /** Sentences of the earlier report no longer supported, with the gone sources they cited. */
  dropped: { text: string; sources: NamedSource[] }[];
  /** Findings of the earlier report that lost a source but could not be checked, and why. */
  unchecked?: { count: number; reason: string };
}
