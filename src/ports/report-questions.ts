import type { FinalReport, Source } from './report.js';
import type { Usage } from './research.js';

/** A question about a finished (or partial) report, answered from it and the sources its research kept. */
export interface ReportQuestion {
  question: string;
  report: FinalReport;
  /** The report's session and those it continues: where its sources' texts are kept. */
  sessionIds: string[];
}

/**
 * The answer, citing in the report's own numbering (sources the report did
 * not cite get numbers after its own); or, when the report and its sources
 * do not answer it, `unanswered`. Either way what the model call used.
 */
export type ReportAnswer =
  | { kind: 'answered'; markdown: string; sources: Source[]; usage: Usage; costUsd: number | null }
  | { kind: 'unanswered'; usage: Usage; costUsd: number | null };

export interface ReportQuestions {
  answer(question: ReportQuestion, signal?: AbortSignal): Promise<ReportAnswer>;
}
