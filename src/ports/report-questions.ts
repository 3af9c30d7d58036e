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
 * do not answer it, `unanswered`; or, when the model's answer could not be
 * used, `unusable` with the sentence to show. Each with what the model call
 * used and cost (`costUsd`: what counts against the caps; paid either way).
 */
export type ReportAnswer =
  | { kind: 'answered'; markdown: string; sources: Source[]; usage: Usage; costUsd: number | null }
  | { kind: 'unanswered'; usage: Usage; costUsd: number | null }
  | { kind: 'unusable'; sentence: string; usage: Usage; costUsd: number | null };

/** Whether a question asks what an earlier one asked (`same` null: the model's answer could not be used), and what finding out cost. */
export interface QuestionComparison {
  same: boolean | null;
  usage: Usage;
  costUsd: number | null;
}

export interface ReportQuestions {
  answer(question: ReportQuestion, signal?: AbortSignal): Promise<ReportAnswer>;
  /** The most one answer may cost (its model call at the largest input and output it is given): what the caps hold for it. */
  maxCostUsd(): Promise<number>;
  /** Whether `asked` asks what `earlier` asked, so the earlier report answers it (one short model call). */
  compare(earlier: string, asked: string, signal?: AbortSignal): Promise<QuestionComparison>;
  /** The most one comparison may cost: what the caps hold for it. */
  maxCompareCostUsd(): Promise<number>;
}
